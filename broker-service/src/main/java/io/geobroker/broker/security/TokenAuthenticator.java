package io.geobroker.broker.security;

import io.geobroker.broker.config.BrokerProperties;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.stereotype.Component;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Who a bearer token belongs to: the operator (admin token from configuration), a peer broker (peer
 * token) or a customer (token hash checked against the {@code customers} table, cached once
 * verified). Used by the security filter chain and by the {@link io.geobroker.broker.web.HotPathFilter},
 * so both accept exactly the same tokens. Tokens are never logged.
 */
@Component
public class TokenAuthenticator {

    public static final String ROLE_CUSTOMER = "ROLE_CUSTOMER";
    public static final String ROLE_ADMIN = "ROLE_ADMIN";
    public static final String ROLE_PEER = "ROLE_PEER";
    private static final int CACHE_LIMIT = 100_000;

    private final CustomerDao customers;
    private final BrokerProperties.Security config;
    private final Map<String, String> verified = new ConcurrentHashMap<>();

    public TokenAuthenticator(CustomerDao customers, BrokerProperties properties) {
        this.customers = customers;
        this.config = properties.security();
    }

    /** The principal of an {@code Authorization} header value, if it is a bearer token of someone. */
    public Optional<UsernamePasswordAuthenticationToken> authenticateHeader(String header) {
        if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return Optional.empty();
        }
        return authenticate(header.substring(7).trim());
    }

    /** The customer whose token this is; empty for anyone else's (operator, peer) or no one's. */
    public Optional<String> customerOf(String token) {
        return authenticate(token).filter(p -> hasRole(p, ROLE_CUSTOMER)).map(UsernamePasswordAuthenticationToken::getName);
    }

    Optional<UsernamePasswordAuthenticationToken> authenticate(String token) {
        if (Tokens.same(token, config.adminToken())) {
            return Optional.of(principal("admin", ROLE_ADMIN));
        }
        if (Tokens.same(token, config.peerToken())) {
            return Optional.of(principal("peer", ROLE_PEER));
        }
        String hash = Tokens.sha256(token);
        String cached = verified.get(hash);
        if (cached != null) {
            return Optional.of(principal(cached, ROLE_CUSTOMER));
        }
        Optional<String> customerId = Tokens.customerOf(token)
                .filter(id -> customers.tokenSha256(id).map(stored -> Tokens.same(stored, hash)).orElse(false));
        customerId.ifPresent(id -> {
            if (verified.size() >= CACHE_LIMIT) {
                verified.clear();
            }
            verified.put(hash, id);
        });
        return customerId.map(id -> principal(id, ROLE_CUSTOMER));
    }

    /** Whether the principal holds the role ({@code ROLE_...}). */
    public static boolean hasRole(UsernamePasswordAuthenticationToken principal, String role) {
        return principal.getAuthorities().stream().anyMatch(a -> a.getAuthority().equals(role));
    }

    private static UsernamePasswordAuthenticationToken principal(String name, String role) {
        return UsernamePasswordAuthenticationToken.authenticated(name, null, List.of(new SimpleGrantedAuthority(role)));
    }
}
