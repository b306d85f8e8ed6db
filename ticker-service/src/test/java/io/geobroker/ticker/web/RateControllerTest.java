package io.geobroker.ticker.web;

import io.geobroker.ticker.publish.PublishingService;
import io.geobroker.ticker.publish.TickerSender;
import io.geobroker.ticker.rate.RateControl;
import io.geobroker.ticker.rate.RateSettings;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.web.servlet.WebMvcTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

@WebMvcTest({RateController.class, ReplayController.class, ProblemDetailsAdvice.class})
class RateControllerTest {

    private static final List<String> EXCHANGES = List.of("ASX", "NYSE", "NASDAQ");

    @TestConfiguration
    static class Beans {
        @Bean
        RateControl rateControl() {
            return new RateControl(EXCHANGES, RateSettings.of(600, Map.of("ASX", 0.2, "NYSE", 0.4, "NASDAQ", 0.4), EXCHANGES));
        }

        @Bean
        PublishingService publishingService() {
            return new PublishingService(List.of(), List.of(), null, null, new TickerSender(List.of(), new SimpleMeterRegistry()));
        }
    }

    @Autowired
    MockMvc mvc;

    @Autowired
    RateControl control;

    @Test
    void shows_the_rate_per_exchange() throws Exception {
        mvc.perform(get("/api/v1/rate"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.tickersPerSecond").value(600.0))
                .andExpect(jsonPath("$.split.ASX").value(0.2))
                .andExpect(jsonPath("$.perExchange.NYSE").value(240.0));
    }

    @Test
    void changes_the_rate_and_split() throws Exception {
        mvc.perform(put("/api/v1/rate").contentType(MediaType.APPLICATION_JSON)
                        .content("{\"tickersPerSecond\": 1000, \"split\": {\"NYSE\": 0.5, \"NASDAQ\": 0.5}}"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.perExchange.NYSE").value(500.0))
                .andExpect(jsonPath("$.perExchange.ASX").value(0.0));
        assertThat(control.current().rateOf("NASDAQ")).isEqualTo(500);

        mvc.perform(put("/api/v1/rate").contentType(MediaType.APPLICATION_JSON).content("{\"tickersPerSecond\": 10}"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.perExchange.NYSE").value(5.0));
    }

    @Test
    void rejects_a_negative_rate_and_an_unknown_exchange_with_problem_details() throws Exception {
        mvc.perform(put("/api/v1/rate").contentType(MediaType.APPLICATION_JSON)
                        .content("{\"tickersPerSecond\": -1, \"split\": {\"LSE\": 1}}"))
                .andExpect(status().isBadRequest())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.title").value("Invalid rate"))
                .andExpect(jsonPath("$.problems[0]").value("tickersPerSecond must be zero or positive, was -1.0"))
                .andExpect(jsonPath("$.problems[1]").value(containsString("exchange 'LSE'")));
        assertThat(control.current().tickersPerSecond()).isNotNegative();
    }

    @Test
    void rejects_a_split_that_does_not_add_up() throws Exception {
        mvc.perform(put("/api/v1/rate").contentType(MediaType.APPLICATION_JSON)
                        .content("{\"tickersPerSecond\": 10, \"split\": {\"NYSE\": 0.7, \"ASX\": 0.7}}"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.detail").value("split fractions must add up to 1, they add up to 1.4"));
    }

    @Test
    void rejects_a_missing_rate_malformed_json_and_unknown_fields() throws Exception {
        mvc.perform(put("/api/v1/rate").contentType(MediaType.APPLICATION_JSON).content("{}"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.detail").value("tickersPerSecond is required"));
        mvc.perform(put("/api/v1/rate").contentType(MediaType.APPLICATION_JSON).content("{\"tickersPerSecond\": "))
                .andExpect(status().isBadRequest())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON));
        mvc.perform(put("/api/v1/rate").contentType(MediaType.APPLICATION_JSON).content("{\"tickersPerSecond\": \"fast\"}"))
                .andExpect(status().isBadRequest());
        mvc.perform(put("/api/v1/rate").contentType(MediaType.APPLICATION_JSON).content("{\"rate\": 5}"))
                .andExpect(status().isBadRequest());
    }

    @Test
    void replay_status_is_not_found_when_generating() throws Exception {
        mvc.perform(get("/api/v1/replay"))
                .andExpect(status().isNotFound())
                .andExpect(jsonPath("$.title").value("Not replaying"));
    }
}
