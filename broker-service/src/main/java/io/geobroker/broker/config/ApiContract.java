package io.geobroker.broker.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.geobroker.broker.daytrading.DayTradingCommand;
import io.geobroker.broker.daytrading.DtCommand;
import io.geobroker.broker.order.OrderValidator;
import io.geobroker.broker.web.BodyLimitFilter;
import io.geobroker.domain.OrderType;
import io.geobroker.domain.SymbolDirectory;
import io.geobroker.domain.SymbolInfo;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.links.Link;
import io.swagger.v3.oas.models.media.BooleanSchema;
import io.swagger.v3.oas.models.media.ComposedSchema;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.Discriminator;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.stereotype.Component;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Makes the generated OpenAPI document the API's exact contract: the statuses every operation can
 * answer besides those its controller declares (authentication, malformed requests, oversized
 * bodies and headers, an unavailable broker), every error as an {@code application/problem+json}
 * {@code Problem}, one request schema per order type (a discriminator on {@code type}) with the
 * bounds and patterns {@link OrderValidator} enforces, and the peer brokers' {@code /internal}
 * endpoints left out (they are not part of the customer API). A placement links to reading and to
 * cancelling the order it answers with, which stateful fuzzers follow.
 *
 * <p>The document is checked in ({@code broker-service/openapi.json}) and compared with the served
 * one by {@code ApiContractIT}, so every change to the API shows as a diff.
 */
@Component
public class ApiContract implements OpenApiCustomizer {

    static final String PROBLEM = "Problem";
    private static final String PROBLEM_JSON = org.springframework.http.MediaType.APPLICATION_PROBLEM_JSON_VALUE;
    private static final String JSON = org.springframework.http.MediaType.APPLICATION_JSON_VALUE;
    private static final String XML = org.springframework.http.MediaType.APPLICATION_XML_VALUE;
    private static final String TEXT = org.springframework.http.MediaType.TEXT_PLAIN_VALUE;
    private static final String REF = "#/components/schemas/";
    private static final String ORDER_ID = "$response.body#/orderId";
    private static final ObjectMapper EXAMPLES = new ObjectMapper();

    private final SymbolDirectory directory;

    public ApiContract(SymbolDirectory directory) {
        this.directory = directory;
    }

    @Override
    public void customise(OpenAPI api) {
        api.getPaths().keySet().removeIf(path -> path.startsWith("/internal/"));
        api.getComponents().addSchemas(PROBLEM, problemSchema());
        orderSchemas().forEach(api.getComponents()::addSchemas);
        api.getComponents().addSchemas("CashRequest", cashRequest());
        api.getComponents().addSchemas("NewCustomer", newCustomer());
        api.getComponents().addSchemas("SeedHolding", seedHolding());

        api.getPaths().forEach((path, item) -> item.readOperationsMap().forEach((method, operation) -> {
            boolean body = operation.getRequestBody() != null;
            if (path.equals("/api/v1/orders") && method == PathItem.HttpMethod.POST) {
                operation.getRequestBody().setContent(json(placeOrderSchema()));
                for (String placed : List.of("200", "201", "202")) {
                    operation.getResponses().get(placed)
                            .link("GetOrder", new Link().operationId("get").parameters("orderId", ORDER_ID)
                                    .description("The order as it is now"))
                            .link("CancelOrder", new Link().operationId("cancel").parameters("orderId", ORDER_ID)
                                    .description("Cancel the order"));
                }
            }
            if (path.equals("/api/v1/day-trading/commands") && method == PathItem.HttpMethod.POST) {
                operation.getRequestBody().setContent(json(dayTradingCommand()));
            }
            if (path.equals(BodyLimitFilter.BATCH_PATH)) {
                operation.getRequestBody().setContent(new Content().addMediaType(TEXT, new MediaType().schema(
                        new StringSchema().minLength(1).maxLength(1_048_576).description("Workload lines '[N] COMMAND,field,...', "
                                + "one per line")
                                .example("[1] ADD,alice,1000.00\n[2] BUY,alice,ABC,250.00\n[3] COMMIT_BUY,alice"))));
            }
            if (path.endsWith("/day-trading/log")) {
                operation.getResponses().get("200").setContent(new Content().addMediaType(XML, new MediaType()
                        .schema(new StringSchema().description("<log> of userCommand, quoteServer, accountTransaction, "
                                + "systemEvent, errorEvent and debugEvent elements (the course's logfile.xsd)"))));
            }
            ApiResponses responses = operation.getResponses();
            addIfAbsent(responses, "400", "Malformed request: " + (body ? "a body that is not the JSON the schema "
                    + "describes (unknown or duplicate fields, wrong types, missing fields, values out of bounds), " : "")
                    + "an invalid parameter, or a request Tomcat cannot parse");
            addIfAbsent(responses, "401", "No token, or not a valid one");
            addIfAbsent(responses, "403", path.startsWith("/admin/") ? "Not the operator's token"
                    : "Not a customer's token (the operator's token reaches only /admin)");
            if (body) {
                addIfAbsent(responses, "413", "The body exceeds the broker's limit (16 KiB by default)");
                addIfAbsent(responses, "415", "The body is not application/json");
            }
            addIfAbsent(responses, "431", "The request line and headers exceed the broker's limit (32 KiB by default)");
            addIfAbsent(responses, "503", "The broker could not complete the request in time (Cassandra or the engine "
                    + "busy, or another region unreachable); retrying is safe");
            responses.get("503").addHeaderObject("Retry-After", new Header()
                    .description("Seconds to wait before retrying").schema(new IntegerSchema()));
            responses.forEach((code, response) -> {
                if (code.startsWith("4") || code.startsWith("5")) {
                    response.setContent(problemContent());
                } else if (response.getContent() != null) {
                    Content content = new Content();
                    response.getContent().forEach((type, media) -> content.addMediaType(XML.equals(type) ? XML : JSON, media));
                    response.setContent(content);
                }
            });
            operation.setResponses(sorted(responses));
        }));
        dropUnreferencedSchemas(api);
    }

    /** Leaves out the schemas nothing refers to any more (those of the endpoints and types replaced above). */
    private static void dropUnreferencedSchemas(OpenAPI api) {
        boolean dropped = true;
        while (dropped) {
            String document;
            try {
                document = io.swagger.v3.core.util.Json.mapper().writeValueAsString(api.getPaths())
                        + io.swagger.v3.core.util.Json.mapper().writeValueAsString(api.getComponents().getSchemas());
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("cannot serialise the OpenAPI document", e);
            }
            dropped = api.getComponents().getSchemas().keySet()
                    .removeIf(name -> !document.contains("\"" + REF + name + "\""));
        }
    }

    private static void addIfAbsent(ApiResponses responses, String code, String description) {
        if (!responses.containsKey(code)) {
            responses.addApiResponse(code, new ApiResponse().description(description));
        }
    }

    private static ApiResponses sorted(ApiResponses responses) {
        ApiResponses ordered = new ApiResponses();
        new TreeSet<>(responses.keySet()).forEach(code -> ordered.addApiResponse(code, responses.get(code)));
        return ordered;
    }

    private static Content problemContent() {
        return new Content().addMediaType(PROBLEM_JSON, new MediaType().schema(new Schema<>().$ref(REF + PROBLEM)));
    }

    private static Content json(Schema<?> schema) {
        return new Content().addMediaType(JSON, new MediaType().schema(schema));
    }

    private static Schema<?> problemSchema() {
        Schema<Object> problem = new ObjectSchema()
                .description("RFC 7807 problem details; extra fields such as orderId, homeRegion or order (the "
                        + "order as it is) depend on the problem")
                .addProperty("type", new StringSchema().format("uri"))
                .addProperty("title", new StringSchema())
                .addProperty("status", new IntegerSchema().minimum(BigDecimal.valueOf(400)).maximum(BigDecimal.valueOf(599)))
                .addProperty("detail", new StringSchema())
                .addProperty("instance", new StringSchema().format("uri-reference"))
                .addProperty("orderId", new StringSchema().format("uuid"))
                .addProperty("homeRegion", new StringSchema())
                .addProperty("order", new Schema<>().$ref(REF + "OrderResponse"));
        problem.setRequired(List.of("title", "status"));
        return problem;
    }

    private Map<String, Schema> orderSchemas() {
        Map<String, Schema> schemas = new LinkedHashMap<>();
        for (OrderType type : OrderType.values()) {
            schemas.put(orderSchemaName(type), orderSchema(type));
        }
        return schemas;
    }

    private static String orderSchemaName(OrderType type) {
        return switch (type) {
            case MARKET -> "MarketOrderRequest";
            case LIMIT -> "LimitOrderRequest";
            case STOP -> "StopOrderRequest";
            case STOP_LIMIT -> "StopLimitOrderRequest";
        };
    }

    private static Schema<?> placeOrderSchema() {
        ComposedSchema oneOf = new ComposedSchema();
        Discriminator discriminator = new Discriminator().propertyName("type");
        for (OrderType type : OrderType.values()) {
            oneOf.addOneOfItem(new Schema<>().$ref(REF + orderSchemaName(type)));
            discriminator.mapping(type.name(), REF + orderSchemaName(type));
        }
        oneOf.discriminator(discriminator);
        oneOf.description("One schema per order type: MARKET takes no price, LIMIT a limitPrice, STOP a stopPrice, "
                + "STOP_LIMIT both");
        return oneOf;
    }

    private Schema<?> orderSchema(OrderType type) {
        Schema<Object> schema = objectSchema();
        schema.additionalProperties(false);
        List<String> required = new ArrayList<>(List.of("clientOrderId", "symbol", "side", "type", "quantity"));
        schema.addProperty("clientOrderId", new StringSchema().pattern("^[!-~]{1,64}$").minLength(1).maxLength(64)
                .description("The client's own id: 1 to 64 printable ASCII characters without spaces. Repeating it "
                        + "(in any region) returns the same order, or 409 if the other fields differ"));
        schema.addProperty("symbol", symbolSchema().description("A listed symbol (GET /api/v1/symbols); a symbol no "
                + "region of the deployment trades is answered 422"));
        schema.addProperty("side", new StringSchema()._enum(List.of("BUY", "SELL")));
        schema.addProperty("type", new StringSchema()._enum(List.of(type.name())));
        schema.addProperty("quantity", new IntegerSchema().format("int64").minimum(BigDecimal.ONE)
                .maximum(BigDecimal.valueOf(OrderValidator.MAX_QUANTITY)).description("Whole shares"));
        Map<String, Object> example = new LinkedHashMap<>();
        example.put("clientOrderId", "c-42");
        example.put("symbol", "AAPL");
        example.put("side", "BUY");
        example.put("type", type.name());
        example.put("quantity", 10);
        if (type.hasLimitPrice()) {
            schema.addProperty("limitPrice", price("Limit price in minor units: a BUY fills at or below it, a SELL "
                    + "at or above it"));
            required.add("limitPrice");
            example.put("limitPrice", 19_000);
        }
        if (type.hasStopPrice()) {
            schema.addProperty("stopPrice", price("Stop price in minor units: a BUY triggers at or above it, a SELL "
                    + "at or below it"));
            required.add("stopPrice");
            example.put("stopPrice", 19_500);
        }
        if (type != OrderType.MARKET) {
            schema.addProperty("timeInForce", new StringSchema()._enum(List.of("DAY", "GTC"))
                    .description("DAY (the default) expires at the exchange's close"));
        }
        schema.addProperty("allOrNone", new BooleanSchema().description("Never fill partially; default false"));
        schema.setRequired(required);
        schema.example(EXAMPLES.valueToTree(example));
        schema.description(switch (type) {
            case MARKET -> "Executes at once against the latest quote, which must cover the whole quantity "
                    + "(fill-or-kill); takes no price";
            case LIMIT -> "Waits for a ticker at or better than limitPrice";
            case STOP -> "Becomes a market order when a ticker reaches stopPrice";
            case STOP_LIMIT -> "Becomes a limit order at limitPrice when a ticker reaches stopPrice";
        });
        return schema;
    }

    /** An object schema that takes its example as an object (ObjectSchema would turn it into a string). */
    private static Schema<Object> objectSchema() {
        Schema<Object> schema = new Schema<>();
        schema.setType("object");
        schema.addType("object");
        return schema;
    }

    private static Schema<?> price(String description) {
        return new IntegerSchema().format("int64").minimum(BigDecimal.ONE)
                .maximum(BigDecimal.valueOf(OrderValidator.MAX_PRICE)).description(description
                        + "; a positive multiple of the symbol's tick size (otherwise 422)");
    }

    private StringSchema symbolSchema() {
        StringSchema symbol = new StringSchema();
        symbol._enum(directory.symbols().stream().map(SymbolInfo::symbol).sorted().toList());
        return symbol;
    }

    private Schema<?> cashRequest() {
        Schema<Object> schema = objectSchema();
        schema.additionalProperties(false);
        schema.addProperty("currency", new StringSchema()._enum(directory.exchanges().stream()
                        .map(e -> e.currency()).distinct().sorted().toList())
                .description("A currency of the directory; a currency another region holds is answered 422"));
        schema.addProperty("amount", new IntegerSchema().format("int64").minimum(BigDecimal.ONE)
                .maximum(BigDecimal.valueOf(1_000_000_000_000L)).description("Minor units"));
        schema.setRequired(List.of("currency", "amount"));
        schema.example(EXAMPLES.valueToTree(Map.of("currency", "USD", "amount", 100_000)));
        return schema;
    }

    /** One day-trading command: which fields it takes depends on the command (422 when they do not fit). */
    private static Schema<?> dayTradingCommand() {
        Schema<Object> schema = objectSchema();
        schema.additionalProperties(false);
        schema.addProperty("transactionNum", new IntegerSchema().format("int64").minimum(BigDecimal.ONE)
                .description("Default: the broker's next"));
        schema.addProperty("command", new StringSchema()._enum(Arrays.stream(DtCommand.values()).map(Enum::name).toList()));
        schema.addProperty("user", new StringSchema().pattern("^" + DayTradingCommand.USER_PATTERN + "$")
                .description("Default and only allowed value: the customer's own id"));
        schema.addProperty("stockSymbol", new StringSchema().pattern("^" + DayTradingCommand.SYMBOL_PATTERN + "$")
                .description("QUOTE, BUY, SELL and the SET_* and CANCEL_SET_* commands"));
        schema.addProperty("amount", new StringSchema().pattern("^" + DayTradingCommand.AMOUNT_PATTERN + "$")
                .description("Dollars of the region's currency: ADD, BUY, SELL, SET_BUY_AMOUNT, SET_SELL_AMOUNT"));
        schema.addProperty("price", new StringSchema().pattern("^" + DayTradingCommand.AMOUNT_PATTERN + "$")
                .description("SET_BUY_TRIGGER and SET_SELL_TRIGGER"));
        schema.addProperty("filename", new StringSchema().pattern("^" + DayTradingCommand.FILENAME_PATTERN + "$")
                .description("DUMPLOG"));
        schema.setRequired(List.of("command"));
        schema.example(EXAMPLES.valueToTree(Map.of("command", "BUY", "stockSymbol", "ABC", "amount", "250.00")));
        return schema;
    }

    private static Schema<?> newCustomer() {
        Schema<Object> schema = objectSchema();
        schema.additionalProperties(false);
        schema.addProperty("customerId", new StringSchema().pattern("^[A-Za-z0-9_-]{1,64}$").minLength(1).maxLength(64));
        schema.addProperty("displayName", new StringSchema().maxLength(200).description("Default: the customerId"));
        schema.setRequired(List.of("customerId"));
        schema.example(EXAMPLES.valueToTree(Map.of("customerId", "alice", "displayName", "Alice")));
        return schema;
    }

    private Schema<?> seedHolding() {
        Schema<Object> schema = objectSchema();
        schema.additionalProperties(false);
        schema.addProperty("symbol", symbolSchema().description("A symbol this region's exchanges list (otherwise 422)"));
        schema.addProperty("quantity", new IntegerSchema().format("int64").minimum(BigDecimal.ONE)
                .maximum(BigDecimal.valueOf(1_000_000_000L)));
        schema.setRequired(List.of("symbol", "quantity"));
        schema.example(EXAMPLES.valueToTree(Map.of("symbol", "AAPL", "quantity", 100)));
        return schema;
    }
}
