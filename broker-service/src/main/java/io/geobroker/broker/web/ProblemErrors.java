package io.geobroker.broker.web;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.swagger.v3.oas.annotations.Hidden;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.catalina.Valve;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.springframework.boot.web.embedded.tomcat.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.error.ErrorController;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.security.web.firewall.HttpFirewall;
import org.springframework.security.web.firewall.RequestRejectedHandler;
import org.springframework.security.web.firewall.StrictHttpFirewall;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import java.io.IOException;

/**
 * Problem details for the errors no controller answers: what Tomcat refuses before the application
 * ({@link ProblemErrorReportValve}), what Spring Security's firewall rejects (paths with {@code ;},
 * {@code //}, encoded {@code /} or {@code %}), and every {@code sendError} or exception that ends in
 * the container's error dispatch ({@code /error}), which replaces Spring Boot's HTML and JSON pages.
 */
@Configuration(proxyBeanMethods = false)
public class ProblemErrors {

    /** Installs the valve in place of the host's HTML error report (Spring Boot's or Tomcat's own). */
    @Bean
    public WebServerFactoryCustomizer<TomcatServletWebServerFactory> problemErrorReportValve(ObjectMapper mapper) {
        return new ValveInstaller(mapper);
    }

    /** Runs after Spring Boot's own customizer, which adds an HTML error report valve of its own. */
    private record ValveInstaller(ObjectMapper mapper)
            implements WebServerFactoryCustomizer<TomcatServletWebServerFactory>, Ordered {

        @Override
        public int getOrder() {
            return Ordered.LOWEST_PRECEDENCE;
        }

        @Override
        public void customize(TomcatServletWebServerFactory factory) {
            factory.addContextCustomizers(context -> {
                if (context.getParent() instanceof StandardHost host) {
                    for (Valve valve : host.getPipeline().getValves()) {
                        if (valve instanceof ErrorReportValve && !(valve instanceof ProblemErrorReportValve)) {
                            host.getPipeline().removeValve(valve);
                        }
                    }
                    host.setErrorReportValveClass(ProblemErrorReportValve.class.getName());
                    host.getPipeline().addValve(new ProblemErrorReportValve(mapper));
                }
            });
        }
    }

    /**
     * Spring Security's firewall, letting every method through (TRACE, QUERY, ...) so that Spring MVC
     * answers a method an operation does not take with 405 and Allow, whatever the method; who may
     * call a path does not depend on the method.
     */
    @Bean
    public HttpFirewall httpFirewall() {
        StrictHttpFirewall firewall = new StrictHttpFirewall();
        firewall.setUnsafeAllowAnyHttpMethod(true);
        return firewall;
    }

    @Bean
    public RequestRejectedHandler problemRequestRejectedHandler(ObjectMapper mapper) {
        return (request, response, rejected) -> write(mapper, response, ProblemErrorReportValve.problem(
                HttpStatus.BAD_REQUEST.value(), "Rejected request", "the URL contains a character or segment the API "
                        + "does not accept (';', '//', '..', an encoded '/', '\\\\' or '%', or a non-printable character)"));
    }

    /** The container's error dispatch, answered as a problem detail whatever the client accepts. */
    @Hidden
    @RestController
    public static class ErrorPages implements ErrorController {

        private final ObjectMapper mapper;

        ErrorPages(ObjectMapper mapper) {
            this.mapper = mapper;
        }

        @RequestMapping("/error")
        public void error(HttpServletRequest request, HttpServletResponse response) throws IOException {
            Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
            int status = code instanceof Integer i && i >= 400 ? i : HttpStatus.NOT_FOUND.value();
            HttpStatus known = HttpStatus.resolve(status);
            String title = known == null ? "Error" : known.getReasonPhrase();
            String detail = switch (status) {
                case 404 -> "no such resource";
                case 405 -> "this method is not allowed on " + request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI);
                default -> null;
            };
            write(mapper, response, ProblemErrorReportValve.problem(status, title, detail));
        }
    }

    static void write(ObjectMapper mapper, HttpServletResponse response, ProblemDetail body) throws IOException {
        if (response.isCommitted()) {
            return;
        }
        response.resetBuffer();
        response.setStatus(body.getStatus());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        response.setCharacterEncoding("UTF-8");
        mapper.writeValue(response.getOutputStream(), body);
    }
}
