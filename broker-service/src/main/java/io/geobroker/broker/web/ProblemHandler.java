package io.geobroker.broker.web;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.QueryExecutionException;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.InvalidNullException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import io.geobroker.broker.matching.Engine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;
import org.springframework.web.context.request.WebRequest;
import org.springframework.http.HttpStatusCode;

import java.net.URI;
import java.util.Arrays;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/**
 * Every error as an RFC 7807 problem detail. Spring's own MVC errors (unsupported media type, method
 * not allowed, ...) come from {@link ResponseEntityExceptionHandler}; unreadable bodies get a message
 * that names the field at fault. Anything the client could not have caused is a 5xx without details.
 */
@RestControllerAdvice
public class ProblemHandler extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ProblemHandler.class);

    @ExceptionHandler(ApiProblem.class)
    public ResponseEntity<ProblemDetail> apiProblem(ApiProblem problem) {
        ResponseEntity.BodyBuilder answer = ResponseEntity.status(problem.detail().getStatus());
        if (problem.retryAfterSeconds() > 0) {
            answer.header(HttpHeaders.RETRY_AFTER, Integer.toString(problem.retryAfterSeconds()));
        }
        return answer.body(problem.detail());
    }

    @ExceptionHandler(BodyTooLargeException.class)
    public ResponseEntity<ProblemDetail> tooLarge(BodyTooLargeException e) {
        return problem(HttpStatus.PAYLOAD_TOO_LARGE, "Request body too large", e.getMessage());
    }

    @ExceptionHandler(MethodArgumentTypeMismatchException.class)
    public ResponseEntity<ProblemDetail> badParameter(MethodArgumentTypeMismatchException e) {
        String detail = "parameter '" + e.getName() + "' has an invalid value";
        Class<?> type = e.getRequiredType();
        if (type != null && type.isEnum()) {
            detail += "; expected one of " + Arrays.toString(type.getEnumConstants());
        }
        return problem(HttpStatus.BAD_REQUEST, "Invalid parameter", detail);
    }

    @ExceptionHandler({Engine.EngineBusyException.class, Engine.DeadlinePassedException.class, TimeoutException.class, DriverTimeoutException.class,
            AllNodesFailedException.class, QueryExecutionException.class})
    public ResponseEntity<ProblemDetail> unavailable(Exception e) {
        log.warn("request failed: {}", e.toString());
        ProblemDetail body = ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE,
                "The broker cannot complete the request right now; retry with the same clientOrderId is safe.");
        body.setTitle("Service unavailable");
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).header(HttpHeaders.RETRY_AFTER, "1").body(body);
    }

    /** Whether {@link #unavailable} is the answer to the exception (the types it handles). */
    static boolean isUnavailable(Throwable e) {
        return e instanceof Engine.EngineBusyException || e instanceof Engine.DeadlinePassedException
                || e instanceof TimeoutException || e instanceof DriverTimeoutException
                || e instanceof AllNodesFailedException || e instanceof QueryExecutionException;
    }

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException ex, HttpHeaders headers,
                                                                  HttpStatusCode status, WebRequest request) {
        if (ex.getCause() instanceof BodyTooLargeException tooLarge) {
            return new ResponseEntity<>(body(HttpStatus.PAYLOAD_TOO_LARGE, "Request body too large",
                    tooLarge.getMessage()), HttpStatus.PAYLOAD_TOO_LARGE);
        }
        return new ResponseEntity<>(body(HttpStatus.BAD_REQUEST, "Malformed request body", describe(ex)),
                HttpStatus.BAD_REQUEST);
    }

    @Override
    protected ResponseEntity<Object> handleMissingServletRequestParameter(MissingServletRequestParameterException ex,
                                                                          HttpHeaders headers, HttpStatusCode status,
                                                                          WebRequest request) {
        return new ResponseEntity<>(body(HttpStatus.BAD_REQUEST, "Missing parameter",
                "parameter '" + ex.getParameterName() + "' is required"), HttpStatus.BAD_REQUEST);
    }

    private static String describe(HttpMessageNotReadableException ex) {
        Throwable cause = ex.getCause();
        if (cause instanceof UnrecognizedPropertyException u) {
            return "unknown field '" + u.getPropertyName() + "'; known fields: " + u.getKnownPropertyIds();
        }
        if (cause instanceof InvalidFormatException f && f.getTargetType() != null && f.getTargetType().isEnum()) {
            return "field '" + path(f) + "' has value " + f.getValue() + "; expected one of "
                    + Arrays.toString(f.getTargetType().getEnumConstants());
        }
        if (cause instanceof InvalidNullException n && !n.getPath().isEmpty()) {
            return "field '" + path(n) + "' is null; leave out a field that has no value";
        }
        if (cause instanceof MismatchedInputException m && !m.getPath().isEmpty()) {
            return "field '" + path(m) + "' has the wrong type or is missing (numbers are JSON numbers, not "
                    + "strings; text and enum values are JSON strings)";
        }
        if (cause instanceof StreamReadException s && s.getOriginalMessage() != null
                && s.getOriginalMessage().startsWith("Duplicate field")) {
            return s.getOriginalMessage().replace("Duplicate field", "field") + " appears more than once in one object";
        }
        if (cause == null) {
            return "the request body is missing or not JSON";
        }
        return "the request body is not valid JSON";
    }

    private static String path(MismatchedInputException e) {
        return e.getPath().stream().map(r -> r.getFieldName() != null ? r.getFieldName() : "[" + r.getIndex() + "]")
                .collect(Collectors.joining("."));
    }

    private static ProblemDetail body(HttpStatus status, String title, String detail) {
        ProblemDetail body = ProblemDetail.forStatusAndDetail(status, detail);
        body.setTitle(title);
        body.setType(URI.create("https://geobroker.io/problems/" + title.toLowerCase().replaceAll("[^a-z0-9]+", "-")));
        return body;
    }

    private static ResponseEntity<ProblemDetail> problem(HttpStatus status, String title, String detail) {
        return ResponseEntity.status(status).body(body(status, title, detail));
    }
}
