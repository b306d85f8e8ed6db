package io.geobroker.broker.web;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;

import java.net.URI;
import java.util.Map;

/** A client-facing failure that becomes an RFC 7807 problem detail with the given status. */
public class ApiProblem extends RuntimeException {

    private final transient ProblemDetail detail;
    private final int retryAfterSeconds;

    public ApiProblem(HttpStatus status, String title, String detail) {
        this(status, title, detail, Map.of());
    }

    public ApiProblem(HttpStatus status, String title, String detail, Map<String, Object> properties) {
        this(status, title, detail, properties, 0);
    }

    /** A problem whose answer carries {@code Retry-After} (when {@code retryAfterSeconds > 0}). */
    public ApiProblem(HttpStatus status, String title, String detail, Map<String, Object> properties,
                      int retryAfterSeconds) {
        super(detail);
        this.detail = ProblemDetail.forStatusAndDetail(status, detail);
        this.detail.setTitle(title);
        this.detail.setType(URI.create("https://geobroker.io/problems/" + title.toLowerCase().replaceAll("[^a-z0-9]+", "-")));
        properties.forEach(this.detail::setProperty);
        this.retryAfterSeconds = retryAfterSeconds;
    }

    /** A problem another broker answered with, passed on to the client as it is. */
    public ApiProblem(ProblemDetail relayed, int retryAfterSeconds) {
        super(relayed.getDetail());
        this.detail = relayed;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    public ProblemDetail detail() {
        return detail;
    }

    /** Seconds for the {@code Retry-After} header, or 0 for none. */
    public int retryAfterSeconds() {
        return retryAfterSeconds;
    }

    public static ApiProblem badRequest(String title, String detail) {
        return new ApiProblem(HttpStatus.BAD_REQUEST, title, detail);
    }

    public static ApiProblem notFound(String title, String detail) {
        return new ApiProblem(HttpStatus.NOT_FOUND, title, detail);
    }

    public static ApiProblem unprocessable(String title, String detail) {
        return new ApiProblem(HttpStatus.UNPROCESSABLE_ENTITY, title, detail);
    }
}
