package io.geobroker.broker.web;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.geobroker.broker.config.BrokerProperties;
import io.geobroker.broker.order.InternalController;
import io.geobroker.broker.order.OrderController;
import io.geobroker.broker.order.PlaceOrderRequest;
import io.geobroker.broker.routing.Forwarded;
import io.geobroker.broker.routing.InboxController;
import io.geobroker.broker.security.TokenAuthenticator;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.boot.actuate.metrics.http.Outcome;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Serves the requests that make up nearly all of a broker's traffic under load (a customer's
 * placement, a peer's forwarded market order and a peer's inbox announcements, one or a batch) by calling their
 * controllers directly, without the servlet filters, Spring Security's filter chain and Spring MVC's
 * dispatch around them, which cost several times what the placement itself does (the broker's
 * profile at the default load: docs/results.md). Only a request that is plainly well formed takes
 * this path: {@code POST} to exactly that path, no query string, a JSON body of a stated length
 * within the body limit that parses, a JSON or absent {@code Accept}, and a bearer token of the role
 * the path needs ({@link TokenAuthenticator}, the same check as the security chain's). Everything
 * else, including a body that does not parse, goes down the full chain with the body as read, so
 * every refusal (401, 403, 400 with its field, 413, 415, 406) is the one the rest of the API gives.
 *
 * <p>The answer is the controller's, written as Spring MVC writes it: the same {@link ObjectMapper},
 * problem details from the same {@link ProblemHandler} (with {@code instance} set to the path), the
 * security headers Spring Security adds to every answer, and the {@code http.server.requests} timer
 * with the tags the MVC path records. {@code geobroker_http_direct_requests_total} counts what it served.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
public class HotPathFilter extends OncePerRequestFilter {

    /** What a route's controller does with the parsed body, for the authenticated principal. */
    private interface Handler {
        ResponseEntity<?> handle(UsernamePasswordAuthenticationToken principal, Object body);
    }

    /** One path this filter serves: the role it needs, how its body is read and who answers it. */
    private record Route(String path, String role, ObjectReader reader, Handler handler, Counter served,
                         Map<Answered, Timer> timers) {
    }

    /** The tags of one {@code http.server.requests} timer of a route. */
    private record Answered(int status, String exception) {
    }

    private final Map<String, Route> routes;
    private final TokenAuthenticator authenticator;
    private final ProblemHandler problems;
    private final MeterRegistry meters;
    private final ObjectWriter writer;
    private final int maxBodyBytes;

    public HotPathFilter(TokenAuthenticator authenticator, OrderController orders, InternalController internal,
                         InboxController inbox, ProblemHandler problems, ObjectMapper mapper, MeterRegistry meters,
                         BrokerProperties properties) {
        this.authenticator = authenticator;
        this.problems = problems;
        this.meters = meters;
        this.writer = mapper.writer();
        this.maxBodyBytes = properties.web().maxBodyBytes();
        String customer = TokenAuthenticator.ROLE_CUSTOMER;
        String peer = TokenAuthenticator.ROLE_PEER;
        this.routes = Map.of(
                "/api/v1/orders", route("/api/v1/orders", customer, mapper.readerFor(PlaceOrderRequest.class),
                        (principal, body) -> orders.place(principal, (PlaceOrderRequest) body)),
                "/internal/v1/orders", route("/internal/v1/orders", peer, mapper.readerFor(Forwarded.Placement.class),
                        (principal, body) -> internal.place((Forwarded.Placement) body)),
                "/internal/v1/inbox", route("/internal/v1/inbox", peer, mapper.readerFor(Forwarded.InboxRow.class),
                        (principal, body) -> inbox.announce((Forwarded.InboxRow) body)),
                "/internal/v1/inbox/batch", route("/internal/v1/inbox/batch", peer,
                        mapper.readerFor(new TypeReference<List<Forwarded.InboxRow>>() { }),
                        (principal, body) -> inbox.announceAll(rows(body))));
    }

    private Route route(String path, String role, ObjectReader reader, Handler handler) {
        Counter served = Counter.builder("geobroker.http.direct.requests").tag("uri", path)
                .description("Requests served by the hot path, without the filter chain and MVC dispatch")
                .register(meters);
        return new Route(path, role, reader, handler, served, new ConcurrentHashMap<>());
    }

    /** A {@code Content-Type} the MVC path reads as UTF-8 JSON, as this path does. */
    static boolean jsonContentType(String contentType) {
        if (contentType == null) {
            return false;
        }
        String type = contentType.trim().toLowerCase();
        return type.equals("application/json") || type.equals("application/json;charset=utf-8")
                || type.equals("application/json; charset=utf-8");
    }

    /** An {@code Accept} the controllers' JSON answers and problem details both satisfy. */
    static boolean acceptsJson(String accept) {
        if (accept == null) {
            return true;
        }
        String type = accept.trim().toLowerCase();
        return type.equals("application/json") || type.equals("*/*");
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Route route = "POST".equals(request.getMethod()) && request.getQueryString() == null
                ? routes.get(request.getRequestURI()) : null;
        int length = request.getContentLength();
        if (route == null || length <= 0 || length > maxBodyBytes
                || !jsonContentType(request.getContentType()) || !acceptsJson(request.getHeader(HttpHeaders.ACCEPT))) {
            chain.doFilter(request, response);
            return;
        }
        Optional<UsernamePasswordAuthenticationToken> principal =
                authenticator.authenticateHeader(request.getHeader(HttpHeaders.AUTHORIZATION));
        if (principal.isEmpty() || !TokenAuthenticator.hasRole(principal.get(), route.role())) {
            chain.doFilter(request, response);
            return;
        }
        long start = System.nanoTime();
        byte[] body;
        try {
            body = request.getInputStream().readNBytes(length);
        } catch (IOException unreadable) {
            // a body that stalls or breaks off: the full chain answers it as it answers one it cannot read
            chain.doFilter(new ReadBody(request, new byte[0]), response);
            return;
        }
        Object parsed;
        try {
            parsed = route.reader().readValue(body);
        } catch (IOException | RuntimeException notParsed) {
            // the full chain reads the same bytes and answers what the rest of the API answers
            chain.doFilter(new ReadBody(request, body), response);
            return;
        }
        ResponseEntity<?> answer;
        String exception = "none";
        try {
            answer = route.handler().handle(principal.get(), parsed);
        } catch (RuntimeException e) {
            answer = problem(e);
            exception = e.getClass().getSimpleName();
        }
        write(request, response, answer);
        route.served().increment();
        timer(route, answer.getStatusCode().value(), exception).record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
    }

    @SuppressWarnings("unchecked")
    private static List<Forwarded.InboxRow> rows(Object body) {
        return (List<Forwarded.InboxRow>) body;
    }

    /** The problem detail {@link ProblemHandler} answers for the exception; any other is rethrown. */
    private ResponseEntity<ProblemDetail> problem(RuntimeException e) {
        if (e instanceof ApiProblem p) {
            return problems.apiProblem(p);
        }
        if (ProblemHandler.isUnavailable(e)) {
            return problems.unavailable(e);
        }
        throw e;
    }

    private void write(HttpServletRequest request, HttpServletResponse response, ResponseEntity<?> answer)
            throws IOException {
        response.setStatus(answer.getStatusCode().value());
        answer.getHeaders().forEach((name, values) -> values.forEach(v -> response.addHeader(name, v)));
        securityHeaders(response);
        Object body = answer.getBody();
        if (body == null) {
            return;
        }
        if (body instanceof ProblemDetail detail) {
            if (detail.getInstance() == null) {
                detail.setInstance(URI.create(request.getRequestURI()));
            }
            response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        } else {
            response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        }
        byte[] bytes = writer.writeValueAsBytes(body);
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
    }

    /** What Spring Security's header writers add to every answer of the API. */
    private static void securityHeaders(HttpServletResponse response) {
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("X-XSS-Protection", "0");
        response.setHeader(HttpHeaders.CACHE_CONTROL, "no-cache, no-store, max-age=0, must-revalidate");
        response.setHeader(HttpHeaders.PRAGMA, "no-cache");
        response.setHeader(HttpHeaders.EXPIRES, "0");
        response.setHeader("X-Frame-Options", "DENY");
    }

    private Timer timer(Route route, int status, String exception) {
        return route.timers().computeIfAbsent(new Answered(status, exception), k -> Timer.builder("http.server.requests")
                .tag("error", exception)
                .tag("exception", exception)
                .tag("method", "POST")
                .tag("outcome", Outcome.forStatus(status).name())
                .tag("status", Integer.toString(status))
                .tag("uri", route.path())
                .register(meters));
    }

    /** The request with its body already read: the rest of the chain reads the same bytes. */
    private static final class ReadBody extends HttpServletRequestWrapper {

        private final byte[] body;

        ReadBody(HttpServletRequest request, byte[] body) {
            super(request);
            this.body = body;
        }

        @Override
        public ServletInputStream getInputStream() {
            ByteArrayInputStream in = new ByteArrayInputStream(body);
            return new ServletInputStream() {
                @Override
                public boolean isFinished() {
                    return in.available() == 0;
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setReadListener(ReadListener listener) {
                    throw new UnsupportedOperationException("the body has been read already");
                }

                @Override
                public int read() {
                    return in.read();
                }

                @Override
                public int read(byte[] b, int off, int len) {
                    return in.read(b, off, len);
                }
            };
        }

        @Override
        public BufferedReader getReader() {
            return new BufferedReader(new InputStreamReader(getInputStream(), StandardCharsets.UTF_8));
        }

        @Override
        public int getContentLength() {
            return body.length;
        }

        @Override
        public long getContentLengthLong() {
            return body.length;
        }
    }
}
