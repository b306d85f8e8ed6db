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
