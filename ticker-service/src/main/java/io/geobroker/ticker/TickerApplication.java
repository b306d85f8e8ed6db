package io.geobroker.ticker;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** The ticker service: publishes realistic tickers of each exchange to the Kafka of its home region. */
@SpringBootApplication
public class TickerApplication {

    public static void main(String[] args) {
        SpringApplication.run(TickerApplication.class, args);
    }
}
