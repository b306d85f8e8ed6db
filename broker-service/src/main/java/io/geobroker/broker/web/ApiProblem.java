package io.geobroker.broker.web;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;

import java.net.URI;
import java.util.Map;

/** A client-facing failure that becomes an RFC 7807 problem detail with the given status. */
public class ApiProblem extends RuntimeException {

    private final transient ProblemDetail detail;

    public ApiProblem(HttpStatus status, String title, String detail) {
        this(status, title, detail, Map.of());
    }

    public ApiProblem(HttpStatus status, String title, String detail, Map<String, Object> properties) {
        super(detail);
        this.detail = ProblemDetail.forStatusAndDetail(status, detail);
        this.detail.setTitle(title);
        this.detail.setType(URI.create("https://geobroker.io/problems/" + title.toLowerCase().replaceAll("[^a-z0-9]+", "-")));
        properties.forEach(this.detail::setProperty);
    }

    public ProblemDetail detail() {
        return detail;
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
