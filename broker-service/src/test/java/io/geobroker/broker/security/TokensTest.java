package io.geobroker.broker.security;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TokensTest {

    @Test
    void a_token_names_its_customer_and_is_unguessable() {
        String a = Tokens.newToken("alice_1");
        String b = Tokens.newToken("alice_1");
        assertThat(a).isNotEqualTo(b).startsWith("alice_1.");
        assertThat(Tokens.customerOf(a)).contains("alice_1");
        assertThat(Tokens.sha256(a)).hasSize(64).isNotEqualTo(Tokens.sha256(b));
    }

    @Test
    void the_hash_is_sha_256_in_hex_whichever_thread_hashed_what_before() throws Exception {
        // FIPS 180-2's example: SHA-256("abc")
        String abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
        assertThat(Tokens.sha256("abc")).isEqualTo(abc);
        Tokens.sha256("something else first");
        assertThat(Tokens.sha256("abc")).isEqualTo(abc);
        String[] onAnotherThread = new String[1];
        Thread t = new Thread(() -> onAnotherThread[0] = Tokens.sha256("abc"));
        t.start();
        t.join();
        assertThat(onAnotherThread[0]).isEqualTo(abc);
    }

    @Test
    void malformed_tokens_name_no_customer() {
        assertThat(Tokens.customerOf("nodot")).isEmpty();
        assertThat(Tokens.customerOf(".secret")).isEmpty();
        assertThat(Tokens.customerOf("bad id.secret")).isEmpty();
        assertThat(Tokens.customerOf("id.")).isEmpty();
    }

    @Test
    void empty_configured_secrets_never_match() {
        assertThat(Tokens.same("", "")).isFalse();
        assertThat(Tokens.same("x", "x")).isTrue();
        assertThat(Tokens.same("x", "y")).isFalse();
    }
}
