package io.geobroker.ticker.web;

import io.geobroker.ticker.rate.InvalidRateException;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Every error of the REST API as RFC 7807 problem details: invalid rates get the list of problems,
 * unreadable JSON and unknown fields a 400 from Spring's standard handling.
 */
@RestControllerAdvice
public class ProblemDetailsAdvice extends ResponseEntityExceptionHandler {

    @ExceptionHandler(InvalidRateException.class)
    ProblemDetail invalidRate(InvalidRateException e) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, String.join("; ", e.problems()));
        problem.setTitle("Invalid rate");
        problem.setProperty("problems", e.problems());
        return problem;
    }
}
