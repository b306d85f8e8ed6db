package io.geobroker.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class Http1Test {

    private static InputStream wire(String s) {
        return new ByteArrayInputStream(s.getBytes(StandardCharsets.ISO_8859_1));
    }

    private static String text(byte[] b) {
        return new String(b, StandardCharsets.ISO_8859_1);
    }

    @Test
    void a_request_is_its_line_host_accept_token_and_body_in_one_piece() {
        byte[] request = Http1.request("POST", "/internal/v1/orders", "127.0.0.1:8080", "secret", "application/json",
                "{}".getBytes(StandardCharsets.UTF_8));

        assertThat(text(request)).isEqualTo("POST /internal/v1/orders HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n"
                + "Accept: application/json\r\nAuthorization: Bearer secret\r\nContent-Type: application/json\r\n"
                + "Content-Length: 2\r\n\r\n{}");
    }

    @Test
    void a_request_without_token_or_body_has_neither_header() {
        byte[] request = Http1.request("GET", "/actuator/health/liveness", "peer", null, "application/json", null);

        assertThat(text(request)).isEqualTo("GET /actuator/health/liveness HTTP/1.1\r\nHost: peer\r\n"
                + "Accept: application/json\r\n\r\n");
    }

    @Test
    void reads_a_fixed_length_answer_and_leaves_what_follows() throws IOException {
        InputStream in = wire("HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: 5\r\n\r\nhelloHTTP/1.1");

        Http1.Answer answer = Http1.readAnswer(in);

        assertThat(answer.status()).isEqualTo(201);
        assertThat(answer.contentType()).isEqualTo("application/json");
        assertThat(text(answer.body())).isEqualTo("hello");
        assertThat(answer.close()).isFalse();
        assertThat(text(in.readAllBytes())).isEqualTo("HTTP/1.1");
    }

    @Test
    void reads_a_chunked_answer_with_trailers() throws IOException {
        Http1.Answer answer = Http1.readAnswer(wire(
                "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n4;x=y\r\nabcd\r\n1\r\ne\r\n0\r\nX-T: 1\r\n\r\n"));

        assertThat(text(answer.body())).isEqualTo("abcde");
        assertThat(answer.contentType()).isNull();
    }

    @Test
    void connection_close_http_1_0_and_a_body_to_the_end_all_close_the_connection() throws IOException {
        assertThat(Http1.readAnswer(wire("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")).close())
                .isTrue();
        assertThat(Http1.readAnswer(wire("HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n")).close()).isTrue();
        Http1.Answer toTheEnd = Http1.readAnswer(wire("HTTP/1.1 200 OK\r\n\r\nall of it"));
        assertThat(toTheEnd.close()).isTrue();
        assertThat(text(toTheEnd.body())).isEqualTo("all of it");
        assertThat(Http1.readAnswer(wire("HTTP/1.1 204 No Content\r\n\r\n")).body()).isEmpty();
    }

    @Test
    void a_broken_answer_is_an_io_exception() {
        assertThatThrownBy(() -> Http1.readAnswer(wire(""))).isInstanceOf(IOException.class)
                .hasMessageContaining("closed");
        assertThatThrownBy(() -> Http1.readAnswer(wire("SSH-2.0-OpenSSH\r\n\r\n"))).isInstanceOf(IOException.class)
                .hasMessageContaining("not an HTTP/1.x answer");
        assertThatThrownBy(() -> Http1.readAnswer(wire("HTTP/1.1 2x0 OK\r\n\r\n"))).isInstanceOf(IOException.class)
                .hasMessageContaining("bad status line");
        assertThatThrownBy(() -> Http1.readAnswer(wire("HTTP/1.1 200 OK\r\nno colon\r\n\r\n")))
                .isInstanceOf(IOException.class).hasMessageContaining("bad header line");
        assertThatThrownBy(() -> Http1.readAnswer(wire("HTTP/1.1 200 OK\r\nContent-Length: -3\r\n\r\n")))
                .isInstanceOf(IOException.class).hasMessageContaining("Content-Length");
        assertThatThrownBy(() -> Http1.readAnswer(wire("HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nshort")))
                .isInstanceOf(IOException.class).hasMessageContaining("5 of 9");
        assertThatThrownBy(() -> Http1.readAnswer(wire("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")))
                .isInstanceOf(IOException.class).hasMessageContaining("bad chunk size");
        assertThatThrownBy(() -> Http1.readAnswer(wire("HTTP/1.1 200 OK\r\n" + "a".repeat(Http1.MAX_LINE + 1))))
                .isInstanceOf(IOException.class).hasMessageContaining("longer than");
    }
}
