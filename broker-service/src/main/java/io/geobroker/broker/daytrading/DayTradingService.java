package io.geobroker.broker.daytrading;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.geobroker.broker.matching.Engine;
import io.geobroker.broker.web.ApiProblem;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Service;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The day-trading front door shared by the customer's endpoint (one command) and the operator's
 * (a batch of workload lines): reads commands, hands them to the engine in one piece and waits
 * until they are durable.
 */
@Service
public class DayTradingService {

    /** Most workload lines in one batch. */
    public static final int MAX_BATCH_LINES = 1_000;

    private final Engine engine;
    private final ObjectMapper mapper;
    /** Transaction numbers for commands sent without one: increasing, at least the time in milliseconds. */
    private final AtomicLong lastTransactionNum = new AtomicLong();

    public DayTradingService(Engine engine, ObjectMapper mapper) {
        this.engine = engine;
        this.mapper = mapper;
    }

    public int minorDigits() {
        return engine.dayTradingCurrencyDigits();
    }

    /** Workload lines ({@code [N] COMMAND,field,...}), blank ones skipped, applied in order. */
    public List<DayTradingResult> batch(String body, String logPath) {
        List<DayTradingCommand> commands = new ArrayList<>();
        for (String line : body.split("\n", -1)) {
            if (line.isBlank()) {
                continue;
            }
            if (commands.size() == MAX_BATCH_LINES) {
                throw ApiProblem.unprocessable("Too many lines", "a batch holds at most " + MAX_BATCH_LINES
                        + " command lines; send the rest in another");
            }
            commands.add(DayTradingCommand.parseLine(line, 0, minorDigits()));
        }
        return commands.isEmpty() ? List.of() : engine.await(engine.dayTrade(commands, logPath));
    }

    public DayTradingResult one(DayTradingCommand command, String logPath) {
        DayTradingCommand c = command.transactionNum() > 0 ? command
                : command.withTransactionNum(lastTransactionNum.updateAndGet(
                        last -> Math.max(last + 1, System.currentTimeMillis())));
        return engine.await(engine.dayTrade(List.of(c), logPath)).get(0);
    }

    /** A refused command as a 422 whose problem details carry the result's fields. */
    public ApiProblem refused(DayTradingResult r) {
        Map<String, Object> fields = mapper.convertValue(r, new TypeReference<Map<String, Object>>() {
        });
        return new ApiProblem(HttpStatus.UNPROCESSABLE_ENTITY, "Command refused", r.error(), fields);
    }
}
