package io.geobroker.broker.web;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;

/**
 * Tomcat's error page as an RFC 7807 problem detail instead of HTML: for what Tomcat refuses
 * before any servlet runs (a request line or headers over the size limit, an encoded slash or an
 * invalid character in the path, a malformed request line) and anything else that reaches the
 * host with an error status and no body. Headers over the limit are answered 431, not Tomcat's 400.
 */
public class ProblemErrorReportValve extends ErrorReportValve {

    private static final String HEADER_TOO_LARGE = "Request header is too large";

    private final ObjectMapper mapper;

    public ProblemErrorReportValve(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        ProblemDetail body;
        if (throwable instanceof IllegalArgumentException && HEADER_TOO_LARGE.equals(throwable.getMessage())) {
            status = HttpStatus.REQUEST_HEADER_FIELDS_TOO_LARGE.value();
            body = problem(status, "Request header too large",
                    "the request line and headers exceed the server's limit");
        } else if (status == HttpStatus.BAD_REQUEST.value()) {
            body = problem(status, "Malformed request", describe(response, throwable));
        } else {
            HttpStatus known = HttpStatus.resolve(status);
            body = problem(status, known == null ? "Error" : known.getReasonPhrase(), null);
        }
        try {
            response.setStatus(status);
            response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
            response.setCharacterEncoding("UTF-8");
            byte[] bytes = mapper.writeValueAsBytes(body);
            response.setContentLength(bytes.length);
            try (OutputStream out = response.getOutputStream()) {
                out.write(bytes);
            }
        } catch (IOException | IllegalStateException e) {
            // The client went away or the response was taken over: nothing more to tell it.
        }
    }

    private static String describe(Response response, Throwable throwable) {
        String message = response.getMessage();
        if (message == null && throwable != null) {
            message = throwable.getMessage();
        }
        return message == null ? "the request is not valid HTTP" : "the request is not valid HTTP: " + message;
    }

    static ProblemDetail problem(int status, String title, String detail) {
        ProblemDetail body = ProblemDetail.forStatus(status);
        body.setTitle(title);
        body.setType(URI.create("https://geobroker.io/problems/" + title.toLowerCase().replaceAll("[^a-z0-9]+", "-")));
        if (detail != null) {
            body.setDetail(detail);
        }
        return body;
    }
}
