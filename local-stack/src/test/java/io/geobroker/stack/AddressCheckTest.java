package io.geobroker.stack;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

class AddressCheckTest {

    @Test
    void an_address_in_use_is_reported_in_one_message() throws IOException {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress("127.0.251.1", 0));
            int port = taken.getLocalPort();

            assertThatThrownBy(() -> LocalStack.checkFree("127.0.251.1", port))
                    .isInstanceOf(StackException.class)
                    .hasMessageStartingWith("address 127.0.251.1:" + port + " is in use");
        }
    }

    @Test
    void a_free_address_passes() throws IOException {
        int port;
        try (ServerSocket probe = new ServerSocket()) {
            probe.bind(new InetSocketAddress("127.0.251.2", 0));
            port = probe.getLocalPort();
        }
        assertThatCode(() -> LocalStack.checkFree("127.0.251.2", port)).doesNotThrowAnyException();
    }
}
