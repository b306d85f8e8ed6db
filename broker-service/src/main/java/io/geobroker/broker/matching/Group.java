package io.geobroker.broker.matching;

import com.datastax.oss.driver.api.core.cql.BoundStatement;
import io.geobroker.broker.routing.OrderInbox;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.LongConsumer;
import java.util.function.Supplier;

/**
 * What the group being built changed, coalesced per row so every row is written once with its
 * final values, and what waits on its commit (REST answers, ticker offsets, inbox rows).
 */
final class Group {

    private final WriteClock writeClock;
    int commands;
    long timestamp = -1;
    final Map<UUID, OrderState> orders = new LinkedHashMap<>();
    final Set<CashAccount> cash = new LinkedHashSet<>();
    final Set<Holding> holdings = new LinkedHashSet<>();
    final List<BoundStatement> transactions = new ArrayList<>();
    final List<EngineStore.FillRow> fills = new ArrayList<>();
    /** Orders this group cancels or expires, published as order events once it is durable. */
    final List<OrderState> ended = new ArrayList<>();
    /** The symbols this group fills, each with the first ticker sequence it fills at. */
    final Map<SymbolState, Long> fillSymbols = new LinkedHashMap<>();
    final Set<SymbolState> symbols = new LinkedHashSet<>();
    /** The answers of the group's commands, prepared when it is committed and run once it is durable. */
    final List<Answer> completions = new ArrayList<>();
    final List<Command.TickerReceived> offsets = new ArrayList<>();
    final List<Command.Skipped> skipped = new ArrayList<>();
    final List<OrderInbox.Entry> inbox = new ArrayList<>();
    /** Rows written once per group with their final values, built when it commits (day-trading users' state). */
    final Map<Object, Supplier<BoundStatement>> latest = new LinkedHashMap<>();

    /**
     * How a command of the group is answered: {@link #prepare} runs when the group is committed, so
     * what it reads of the engine's state is what the group made durable (later groups may change it
     * while this one's write is under way); what it returns runs once the group is durable, given the
     * time it became so (microseconds since the epoch).
     */
    interface Answer {
        LongConsumer prepare();
    }

    /** An answer that reads nothing of the engine's state. */
    void answer(Runnable answer) {
        completions.add(() -> durableMicros -> answer.run());
    }

    Group(WriteClock writeClock) {
        this.writeClock = writeClock;
    }

    /** The write timestamp of this group, fixed at its first use so a retried batch is identical. */
    long timestampMicros() {
        if (timestamp < 0) {
            timestamp = writeClock.next();
        }
        return timestamp;
    }

    /**
     * Makes this group's writes win over a row another region wrote at {@code micros}, whatever its
     * clock: a timestamp already fixed at or below it is taken again from the clock.
     */
    void writeAfter(long micros) {
        writeClock.advancePast(micros);
        if (timestamp >= 0 && timestamp <= micros) {
            timestamp = writeClock.next();
        }
    }

    int statementEstimate() {
        return orders.size() * 3 + cash.size() + holdings.size() + transactions.size() + fills.size()
                + symbols.size() + inbox.size() + latest.size();
    }

    boolean isEmpty() {
        return commands == 0 && orders.isEmpty() && transactions.isEmpty() && inbox.isEmpty() && symbols.isEmpty();
    }

    void clear() {
        commands = 0;
        timestamp = -1;
        orders.clear();
        cash.clear();
        holdings.clear();
        transactions.clear();
        fills.clear();
        ended.clear();
        fillSymbols.clear();
        symbols.clear();
        completions.clear();
        offsets.clear();
        skipped.clear();
        inbox.clear();
        latest.clear();
    }
}
