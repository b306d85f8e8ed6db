package io.geobroker.broker.matching;

import io.geobroker.broker.order.NewOrder;
import io.geobroker.domain.Ticker;

import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/** One input of the engine, applied in arrival order by the engine thread. */
sealed interface Command {

    /** A decoded ticker and where it came from, so its offset is committed once its effects are durable. */
    record TickerReceived(Ticker ticker, String topic, int partition, long offset, long receivedNanos) implements Command {
    }

    /** A ticker record that was dead-lettered: only its offset moves on, behind the tickers before it. */
    record Skipped(String topic, int partition, long offset) implements Command {
    }

    record Place(NewOrder order, CompletableFuture<Outcomes.Placement> result) implements Command {
    }

    record Cancel(String customerId, UUID orderId, CompletableFuture<Outcomes.Cancellation> result) implements Command {
    }

    /** Deposit (positive amount) or withdrawal (negative) of cash in an owned currency. */
    record MoveCash(String customerId, String currency, long amount, CompletableFuture<Outcomes.Movement> result)
            implements Command {
    }

    /** Shares transferred in by an operator (seeding a customer's holdings). */
    record TransferShares(String customerId, String symbol, long quantity, CompletableFuture<Outcomes.Movement> result)
            implements Command {
    }
}
