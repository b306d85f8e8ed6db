package io.geobroker.broker.security;

import io.geobroker.broker.config.BrokerProperties;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpHeaders;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Turns {@code Authorization: Bearer <token>} into a principal: the operator (admin token from
 * configuration), a peer broker (peer token) or a customer (token hash checked against the
 * {@code customers} table, cached once verified). A missing or wrong token leaves the request
 * anonymous; the security rules then answer 401. Tokens are never logged.
 */
public class TokenAuthenticationFilter extends OncePerRequestFilter {

    public static final String ROLE_CUSTOMER = "ROLE_CUSTOMER";
    public static final String ROLE_ADMIN = "ROLE_ADMIN";
    public static final String ROLE_PEER = "ROLE_PEER";
    private static final int CACHE_LIMIT = 100_000;

    private final CustomerDao customers;
    private final BrokerProperties.Security config;
    private final Map<String, String> verified = new ConcurrentHashMap<>();

    public TokenAuthenticationFilter(CustomerDao customers, BrokerProperties.Security config) {
        this.customers = customers;
        this.config = config;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String header = request.getHeader(HttpHeaders.AUTHORIZATION);
        if (header != null && header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            authenticate(header.substring(7).trim()).ifPresent(auth -> SecurityContextHolder.getContext().setAuthentication(auth));
        }
        chain.doFilter(request, response);
    }

    private Optional<UsernamePasswordAuthenticationToken> authenticate(String token) {
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

    private static UsernamePasswordAuthenticationToken principal(String name, String role) {
        return UsernamePasswordAuthenticationToken.authenticated(name, null, List.of(new SimpleGrantedAuthority(role)));
    }
}
