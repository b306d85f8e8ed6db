package io.geobroker.broker.web;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PageTest {

    private static final byte[] STATE = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};

    private static String issued(String scope) {
        return new Page<>(List.of(), ByteBuffer.wrap(STATE)).nextPageToken(scope);
    }

    @Test
    void a_token_round_trips_to_its_paging_state_for_the_same_scope() {
        ByteBuffer state = Page.decodeToken(issued("orders:ann"), "orders:ann");
        byte[] bytes = new byte[state.remaining()];
        state.get(bytes);
        assertThat(bytes).containsExactly(STATE);
        assertThat(new Page<>(List.of(), null).nextPageToken("orders:ann")).isNull();
        assertThat(Page.decodeToken(null, "orders:ann")).isNull();
    }

    @Test
    void a_token_of_another_customer_or_listing_is_refused() {
        String token = issued("orders:ann");
        assertThatThrownBy(() -> Page.decodeToken(token, "orders:bob")).isInstanceOf(ApiProblem.class);
        assertThatThrownBy(() -> Page.decodeToken(token, "transactions:ann")).isInstanceOf(ApiProblem.class);
    }

    @Test
    void a_forged_or_altered_paging_state_never_passes() {
        byte[] token = Base64.getUrlDecoder().decode(issued("orders:ann"));
        token[3] ^= 1;
        String altered = Base64.getUrlEncoder().withoutPadding().encodeToString(token);
        String bare = Base64.getUrlEncoder().withoutPadding().encodeToString(STATE);
        assertThatThrownBy(() -> Page.decodeToken(altered, "orders:ann")).isInstanceOf(ApiProblem.class);
        assertThatThrownBy(() -> Page.decodeToken(bare, "orders:ann")).isInstanceOf(ApiProblem.class);
        assertThatThrownBy(() -> Page.decodeToken("AA", "orders:ann")).isInstanceOf(ApiProblem.class);
        assertThatThrownBy(() -> Page.decodeToken("not base64!", "orders:ann")).isInstanceOf(ApiProblem.class);
    }
}
