package io.geobroker.ticker.web;

import io.geobroker.ticker.rate.InvalidRateException;
import io.geobroker.ticker.rate.RateControl;
import io.geobroker.ticker.rate.RateSettings;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads and changes the publish rate while running. A change applies within about 10 ms. Invalid
 * requests (negative rate, unknown exchange, fractions not adding up to 1) get 400 problem details
 * and leave the rate as it was.
 */
@RestController
@RequestMapping("/api/v1/rate")
public class RateController {

    /**
     * A new rate.
     *
     * @param tickersPerSecond total over all exchanges, 0 pauses; required
     * @param split            fraction per exchange adding up to 1 (exchanges left out get 0); omitted keeps
     *                         the current split
     */
    public record RateRequest(Double tickersPerSecond, Map<String, Double> split) {
    }

    /** The current rate: total, fractions and the resulting tickers per second of each exchange. */
    public record RateView(double tickersPerSecond, Map<String, Double> split, Map<String, Double> perExchange) {
    }

    private final RateControl control;

    public RateController(RateControl control) {
        this.control = control;
    }

    @GetMapping
    public RateView get() {
        return view(control.current());
    }

    @PutMapping
    public RateView put(@RequestBody RateRequest request) {
        if (request.tickersPerSecond() == null) {
            throw new InvalidRateException(List.of("tickersPerSecond is required"));
        }
        return view(control.update(request.tickersPerSecond(), request.split()));
    }

    private RateView view(RateSettings settings) {
        Map<String, Double> split = new LinkedHashMap<>();
        Map<String, Double> perExchange = new LinkedHashMap<>();
        for (String exchange : control.exchanges()) {
            split.put(exchange, settings.split().getOrDefault(exchange, 0.0));
            perExchange.put(exchange, settings.rateOf(exchange));
        }
        return new RateView(settings.tickersPerSecond(), split, perExchange);
    }
}
