package io.geobroker.broker.web;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;

/**
 * A query parameter given without a value ({@code ?pageSize=}, {@code ?status}) or twice is a 400,
 * as the document says (every parameter takes one non-empty value), instead of being taken for a
 * missing one and its default, or for a comma-joined list.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 1)
public class QueryParameterFilter extends OncePerRequestFilter {

    private final ObjectMapper mapper;

    public QueryParameterFilter(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String query = request.getQueryString();
        if (query != null && request.getRequestURI().startsWith("/api/")) {
            Set<String> seen = new HashSet<>();
            for (String pair : query.split("&", -1)) {
                int eq = pair.indexOf('=');
                String name = decoded(eq < 0 ? pair : pair.substring(0, eq));
                String problem = eq < 0 || eq == pair.length() - 1 ? "parameter '" + name + "' has no value; leave out "
                        + "a parameter that has none" : !seen.add(name) ? "parameter '" + name + "' is given twice" : null;
                if (problem != null) {
                    ProblemErrors.write(mapper, response, ProblemErrorReportValve.problem(HttpStatus.BAD_REQUEST.value(),
                            "Invalid parameter", problem));
                    return;
                }
            }
        }
        chain.doFilter(request, response);
    }

    private static String decoded(String name) {
        try {
            return URLDecoder.decode(name, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return name;
        }
    }
}
