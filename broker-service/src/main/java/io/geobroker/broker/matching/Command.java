package io.geobroker.broker.matching;

import io.geobroker.broker.order.NewOrder;
import io.geobroker.broker.order.Order;
import io.geobroker.broker.routing.OrderInbox;
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

    /** A placement; {@code deadlineEpochMillis} (0 = none) is when the caller stops waiting for it. */
    record Place(NewOrder order, long deadlineEpochMillis, CompletableFuture<Outcomes.Placement> result)
            implements Command {
    }

    /**
     * A cancel. {@code pending} is the order as stored when it is still PENDING (placed in another
     * region and not taken from the inbox yet), with the write time of that row; null otherwise.
     */
    record Cancel(String customerId, UUID orderId, Order pending, long pendingWriteMicros,
                  CompletableFuture<Outcomes.Cancellation> result) implements Command {
    }

    /**
     * An order placed in another region, read from this region's inbox: accepted (or rejected)
     * here unless the engine already has it, and its inbox row marked processed either way.
     */
    record Accept(OrderInbox.Entry entry, Order pending, long pendingWriteMicros) implements Command {
    }

    /** Deposit (positive amount) or withdrawal (negative) of cash in an owned currency. */
    record MoveCash(String customerId, String currency, long amount, CompletableFuture<Outcomes.Movement> result)
            implements Command {
    }

    /**
     * Day-trading commands, applied in order; answered together once their group is durable. A
     * DUMPLOG's answer points at {@code logPath}.
     */
    record DayTrade(java.util.List<io.geobroker.broker.daytrading.DayTradingCommand> commands, String logPath,
                    CompletableFuture<java.util.List<io.geobroker.broker.daytrading.DayTradingResult>> result)
            implements Command {
    }

    /**
     * Not a command: put in the queue when a group's write is answered, so an engine waiting for
     * commands wakes up and answers the group at once. Changes nothing.
     */
    record Written() implements Command {
        static final Written WAKE = new Written();
    }

    /** Shares transferred in by an operator (seeding a customer's holdings). */
    record TransferShares(String customerId, String symbol, long quantity, CompletableFuture<Outcomes.Movement> result)
            implements Command {
    }
}
