package io.geobroker.broker.web;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.geobroker.broker.config.BrokerProperties;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;

/**
 * Refuses bodies over {@code geobroker.web.max-body-bytes} with 413 before anything parses them:
 * at once when Content-Length says so, and while reading when the body is chunked.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
public class BodyLimitFilter extends OncePerRequestFilter {

    /** The path of the one endpoint with a larger limit: a day-trading batch. */
    public static final String BATCH_PATH = "/admin/v1/day-trading/batch";

    private final int defaultLimit;
    private final int batchLimit;
    private final ObjectMapper mapper;

    public BodyLimitFilter(BrokerProperties properties, ObjectMapper mapper) {
        this.defaultLimit = properties.web().maxBodyBytes();
        this.batchLimit = properties.web().maxBatchBodyBytes();
        this.mapper = mapper;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        int limit = BATCH_PATH.equals(request.getRequestURI()) ? batchLimit : defaultLimit;
        if (request.getContentLengthLong() > limit) {
            ProblemDetail body = ProblemDetail.forStatusAndDetail(HttpStatus.PAYLOAD_TOO_LARGE,
                    "the request body exceeds " + limit + " bytes");
            body.setTitle("Request body too large");
            response.setStatus(HttpStatus.PAYLOAD_TOO_LARGE.value());
            response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
            response.setHeader("Connection", "close");
            mapper.writeValue(response.getOutputStream(), body);
            return;
        }
        chain.doFilter(new Limited(request, limit), response);
    }

    private static final class Limited extends HttpServletRequestWrapper {
        private final int limit;
        private ServletInputStream stream;

        Limited(HttpServletRequest request, int limit) {
            super(request);
            this.limit = limit;
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (stream == null) {
                ServletInputStream in = super.getInputStream();
                stream = new ServletInputStream() {
                    private long read;

                    @Override
                    public int read() throws IOException {
                        int b = in.read();
                        if (b >= 0 && ++read > limit) {
                            throw new BodyTooLargeException(limit);
                        }
                        return b;
                    }

                    @Override
                    public int read(byte[] buffer, int offset, int length) throws IOException {
                        int n = in.read(buffer, offset, length);
                        if (n > 0 && (read += n) > limit) {
                            throw new BodyTooLargeException(limit);
                        }
                        return n;
                    }

                    @Override
                    public boolean isFinished() {
                        return in.isFinished();
                    }

                    @Override
                    public boolean isReady() {
                        return in.isReady();
                    }

                    @Override
                    public void setReadListener(ReadListener listener) {
                        in.setReadListener(listener);
                    }
                };
            }
            return stream;
        }
    }
}
