package io.geobroker.broker.security;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.config.observation.SecurityObservationSettings;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.AnonymousAuthenticationFilter;

import java.io.IOException;

/**
 * Who may call what: customers ({@code /api/**}) with their own bearer token, the operator
 * ({@code /admin/**}) with the admin token, peer brokers ({@code /internal/**}) with the peer token.
 * Health, Prometheus metrics, the API documentation and the live page's files are open (the page
 * itself calls the API with the customer's token). Failures are problem details.
 */
@Configuration(proxyBeanMethods = false)
public class SecurityConfiguration {

    @Bean
    public SecurityFilterChain securityFilterChain(HttpSecurity http, TokenAuthenticator authenticator,
                                                   ObjectMapper mapper) throws Exception {
        return http
                .csrf(csrf -> csrf.disable())
                .httpBasic(basic -> basic.disable())
                .formLogin(form -> form.disable())
                .logout(logout -> logout.disable())
                .requestCache(cache -> cache.disable())
                .sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .addFilterBefore(new TokenAuthenticationFilter(authenticator),
                        AnonymousAuthenticationFilter.class)
                .authorizeHttpRequests(auth -> auth
                        // The live stream's async dispatch (its end) belongs to a request authorized when it began.
                        .dispatcherTypeMatchers(DispatcherType.ASYNC).permitAll()
                        .requestMatchers("/actuator/health/**", "/actuator/health", "/actuator/prometheus",
                                "/v3/api-docs/**", "/swagger-ui/**", "/swagger-ui.html", "/error").permitAll()
                        // The live page: its markup, script and style, and the deployment's regions.
                        .requestMatchers(HttpMethod.GET, "/", "/index.html", "/page/**").permitAll()
                        .requestMatchers("/api/**").hasRole("CUSTOMER")
                        .requestMatchers("/admin/**").hasRole("ADMIN")
                        .requestMatchers("/internal/**").hasRole("PEER")
                        .anyRequest().denyAll())
                .exceptionHandling(e -> e
                        .authenticationEntryPoint((request, response, ex) -> write(mapper, response,
                                HttpStatus.UNAUTHORIZED, "Unauthenticated",
                                "send 'Authorization: Bearer <token>' with a valid token"))
                        .accessDeniedHandler((request, response, ex) -> write(mapper, response, HttpStatus.FORBIDDEN,
                                "Forbidden", "this token may not call " + request.getRequestURI())))
                .build();
    }

    /**
     * No observation per security filter, authentication and authorization: wrapping each of the
     * chain's filters in an observation cost a measurable share of a request's CPU, and the request
     * as a whole is still observed ({@code http.server.requests}).
     */
    @Bean
    public SecurityObservationSettings securityObservations() {
        return SecurityObservationSettings.noObservations();
    }

    /** No password users: keeps Spring Boot from generating (and logging) a default password. */
    @Bean
    public UserDetailsService noUsers() {
        return new InMemoryUserDetailsManager();
    }

    private static void write(ObjectMapper mapper, HttpServletResponse response, HttpStatus status, String title,
                              String detail) throws IOException {
        ProblemDetail body = ProblemDetail.forStatusAndDetail(status, detail);
        body.setTitle(title);
        response.setStatus(status.value());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        if (status == HttpStatus.UNAUTHORIZED) {
            response.setHeader("WWW-Authenticate", "Bearer");
        }
        mapper.writeValue(response.getOutputStream(), body);
    }
}
