package io.geobroker.broker.security;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpHeaders;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;

/**
 * Turns {@code Authorization: Bearer <token>} into a principal ({@link TokenAuthenticator}). A
 * missing or wrong token leaves the request anonymous; the security rules then answer 401.
 */
public class TokenAuthenticationFilter extends OncePerRequestFilter {

    private final TokenAuthenticator authenticator;

    public TokenAuthenticationFilter(TokenAuthenticator authenticator) {
        this.authenticator = authenticator;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        authenticator.authenticateHeader(request.getHeader(HttpHeaders.AUTHORIZATION))
                .ifPresent(auth -> SecurityContextHolder.getContext().setAuthentication(auth));
        chain.doFilter(request, response);
    }
}
