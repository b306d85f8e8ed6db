package io.geobroker.broker.it;

import io.geobroker.testsupport.StackContext;
import io.geobroker.testsupport.WithLocalStack;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.Select;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The live page in a real browser: Debian's Chromium driven through its chromium-driver (Selenium),
 * against a Sydney and an N. Virginia broker on the shared two-DC stack, tickers published to the
 * real Kafka. A customer signs in with their token, watches a price change as tickers arrive and
 * another region's price arrive by replication, places a limit order that a ticker fills and sees the
 * fill, the order filled and the new holding without reloading (another customer's stream carrying
 * only that customer's own fill of the same ticker), cancels an order, places one for the other
 * region's symbol (pending here, then open at home) and cancels it there, sees a rule
 * checked before sending and the server's problem details when it refuses, opens the other region's
 * page and finds the same orders there, and finally sees a market order for the other region's
 * symbol refused with its retry time once that region's broker cannot be reached.
 *
 * <p>The screenshots go to {@code target/web-page/}; with {@code -Dgeobroker.screenshots.write=true}
 * also to {@code docs/figures/}, where the README shows them.
 */
@WithLocalStack
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WebPageIT {

    private static final Duration PUSHED = Duration.ofSeconds(10);
    /** Replication across the emulated WAN, the home broker's quote write (1 s) and this broker's poll (1 s). */
    private static final Duration REPLICATED = Duration.ofSeconds(20);
    private static final String CHROMIUM = "/usr/bin/chromium";
    private static final String CHROMEDRIVER = "/usr/bin/chromedriver";

    private final String peerToken = "peer-" + UUID.randomUUID();
    private final String customerId = "web-" + UUID.randomUUID().toString().substring(0, 8);
    private InProcessBroker sydney;
    private InProcessBroker nvirginia;
    private Exchange asx;
    private Exchange us;
    private ChromeDriver browser;
    private String token;
    private String filledOrderId;

    @BeforeAll
    void start(StackContext context) {
        TestStack stack = TestStack.of(context);
        String sydneyAddress = stack.testAddress(40);
        String nvirginiaAddress = stack.testAddress(41);
        Map<String, Object> extra = TestStack.peeredBrokers(sydneyAddress, nvirginiaAddress, peerToken);
        sydney = new InProcessBroker(stack, "sydney", sydneyAddress, extra);
        nvirginia = new InProcessBroker(stack, "nvirginia", nvirginiaAddress, extra);
        asx = new Exchange(stack.kafkaBootstrap("sydney"), stack.topics());
        us = new Exchange(stack.kafkaBootstrap("nvirginia"), stack.topics());

        token = sydney.api.customer(customerId);
        BrokerApi.Response deposit = sydney.api.send("POST", "/api/v1/account/deposits", token,
                Map.of("currency", "AUD", "amount", 1_000_000));
        assertThat(deposit.status()).as(deposit.toString()).isEqualTo(201);
        // Dollars are moved by N. Virginia's broker, which knows the customer once its row has replicated there.
        await().atMost(REPLICATED).until(() -> nvirginia.api.send("POST", "/api/v1/account/deposits", token,
                Map.of("currency", "USD", "amount", 1_000_000)).status() == 201);

        if (!new File(CHROMIUM).canExecute() || !new File(CHROMEDRIVER).canExecute()) {
            throw new IllegalStateException("the page's browser tests need Debian's Chromium and its driver at " + CHROMIUM
                    + " and " + CHROMEDRIVER + ": apt-get install -y chromium chromium-driver (.ci/install does)");
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM);
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1280,1600", "--no-proxy-server");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(CHROMEDRIVER)).build();
        browser = new ChromeDriver(service, options);
    }

    @AfterAll
    void stop() {
        if (browser != null) {
            browser.quit();
        }
        for (AutoCloseable c : new AutoCloseable[] {asx, us, nvirginia, sydney}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception e) {
                // closing the rest matters more
            }
        }
    }

    @Test
    @Order(1)
    void a_signed_in_customer_sees_prices_change_as_tickers_arrive() {
        browser.get(sydney.api.baseUrl() + "/");
        await().atMost(PUSHED).untilAsserted(() -> assertThat(text(By.id("served-by"))).contains("served by sydney"));
        signIn();
        asx.tick("BHP", 4510, 1_000);
        await().atMost(PUSHED).untilAsserted(() -> assertThat(text(priceOf("BHP"))).isEqualTo("45.10"));
        asx.tick("BHP", 4525, 1_000);
        await().atMost(PUSHED).untilAsserted(() -> assertThat(text(priceOf("BHP"))).isEqualTo("45.25"));
        assertThat(text(By.cssSelector("#prices tr[data-symbol='BHP'] td.change"))).isEqualTo("+0.15");
        assertThat(text(By.cssSelector("#prices tr[data-symbol='BHP'] td:nth-child(2)"))).isEqualTo("sydney");
        assertThat(text(By.cssSelector("#prices tr[data-symbol='BHP'] td:nth-child(4)"))).isEqualTo("AUD");
        String metrics = sydney.api.rawText("/actuator/prometheus");
        Matcher timed = Pattern.compile("(?m)^geobroker_live_price_push_seconds_count\\{[^}]*} (\\S+)").matcher(metrics);
        assertThat(timed.find()).as("the broker exports the push timer").isTrue();
        assertThat(Double.parseDouble(timed.group(1))).as("both BHP prices timed from the consumer to the page")
                .isGreaterThanOrEqualTo(2);
        Matcher max = Pattern.compile("(?m)^geobroker_live_price_push_seconds_max\\{[^}]*} (\\S+)").matcher(metrics);
        System.out.printf("live page: %s price pushes timed from the ticker consumer to the open page, the slowest %s s%n",
                timed.group(1), max.find() ? max.group(1) : "?");

        // Another region's ticker comes from that region's Kafka once the broker follows it (the page
        // is open): shown with source "ticker", not at the next read of the replicated quotes.
        AtomicLong aapl = new AtomicLong(19_000);
        await().atMost(REPLICATED).pollInterval(Duration.ofMillis(300)).untilAsserted(() -> {
            us.tick("AAPL", aapl.incrementAndGet(), 500);
            assertThat(text(By.cssSelector("#prices tr[data-symbol='AAPL'] td.source"))).isEqualTo("ticker");
        });
        us.tick("AAPL", 19_512, 500);
        await().atMost(PUSHED).untilAsserted(() -> assertThat(text(priceOf("AAPL"))).isEqualTo("195.12"));
        assertThat(text(By.cssSelector("#prices tr[data-symbol='AAPL'] td:nth-child(2)"))).isEqualTo("nvirginia");

        browser.findElement(By.cssSelector("#prices th button[data-sort='price']")).click();
        browser.findElement(By.cssSelector("#prices th button[data-sort='price']")).click();
        assertThat(browser.findElement(By.cssSelector("#prices tbody tr")).getAttribute("data-symbol")).isEqualTo("AAPL");
        assertThat(browser.findElement(By.xpath("//th[button[@data-sort='price']]")).getAttribute("aria-sort"))
                .isEqualTo("descending");
    }

    @Test
    @Order(2)
    void a_limit_order_filled_by_a_ticker_shows_its_fill_and_the_new_holding_without_reloading() throws Exception {
        // Another customer, whose order the same ticker fills, reads the stream too: it gets its own fill only.
        String otherId = "other-" + UUID.randomUUID().toString().substring(0, 8);
        String other = sydney.api.customer(otherId);
        assertThat(sydney.api.send("POST", "/api/v1/account/deposits", other, Map.of("currency", "AUD", "amount", 10_000))
                .status()).isEqualTo(201);
        List<String> otherStream = new CopyOnWriteArrayList<>();
        CompletableFuture<HttpResponse<Stream<String>>> otherResponse = HttpClient.newHttpClient().sendAsync(
                HttpRequest.newBuilder(URI.create(sydney.api.baseUrl() + "/api/v1/stream"))
                        .header("Authorization", "Bearer " + other).build(),
                HttpResponse.BodyHandlers.ofLines());
        Thread reader = new Thread(() -> {
            try (Stream<String> lines = otherResponse.join().body()) {
                lines.forEach(otherStream::add);
            } catch (RuntimeException e) {
                // closed at the end of the test
            }
        }, "other-stream");
        reader.setDaemon(true);
        reader.start();
        BrokerApi.Response otherOrder = sydney.api.place(other, "other-1", "BHP", "BUY", "LIMIT", 1, "limitPrice", 4500);
        assertThat(otherOrder.status()).as(otherOrder.toString()).isEqualTo(201);
        await().atMost(PUSHED).until(() -> otherStream.contains("event:hello"));

        ((JavascriptExecutor) browser).executeScript("window.sameDocument = true;");
        placeThroughForm("BHP", "BUY", "LIMIT", "10", "45.00", null);
        await().atMost(PUSHED).untilAsserted(() -> assertThat(text(By.cssSelector("#order-result dd[data-field='status']")))
                .isEqualTo("201 OPEN"));
        assertThat(text(By.cssSelector("#placements tbody tr td.millis"))).matches("\\d+ ms");
        filledOrderId = text(By.cssSelector("#order-result dd[data-field='order']"));
        await().atMost(PUSHED).untilAsserted(() -> assertThat(text(reservedCash("AUD"))).isEqualTo("450.00"));

        asx.tick("BHP", 4490, 1_000);
        await().atMost(PUSHED).untilAsserted(() -> {
            assertThat(text(By.cssSelector("#fills tr[data-order-id='" + filledOrderId + "'] td:nth-child(4)")))
                    .isEqualTo("10");
            assertThat(text(By.cssSelector("#holdings tr[data-symbol='BHP'] td.available"))).isEqualTo("10");
            assertThat(text(orderStatus(filledOrderId))).isEqualTo("FILLED");
        });
        assertThat(text(By.cssSelector("#fills tr[data-order-id='" + filledOrderId + "'] td:nth-child(5)")))
                .isEqualTo("44.90 AUD");
        assertThat(text(reservedCash("AUD"))).isEqualTo("0.00");
        assertThat(text(By.cssSelector("#cash tr[data-currency='AUD'] td.available"))).isEqualTo("9,551.00");
        assertThat(((JavascriptExecutor) browser).executeScript("return window.sameDocument === true;")).isEqualTo(true);
        assertThat(browser.findElements(By.cssSelector("#fills tbody tr"))).hasSize(1);
        screenshot("web-page-sydney.png");

        String otherOrderId = otherOrder.text("orderId");
        await().atMost(PUSHED).until(() -> otherStream.stream().anyMatch(l -> l.contains(otherOrderId)));
        assertThat(otherStream).noneMatch(l -> l.contains(filledOrderId));
        assertThat(otherStream.stream().filter(l -> l.startsWith("data:") && l.contains("fillId")))
                .allMatch(l -> l.contains(otherOrderId));
        otherResponse.join().body().close();
    }

    @Test
    @Order(3)
    void an_open_order_is_cancelled_from_the_page() {
        placeThroughForm("BHP", "SELL", "LIMIT", "4", "60.00", null);
        await().atMost(PUSHED).untilAsserted(() -> assertThat(text(By.cssSelector("#order-result dd[data-field='status']")))
                .isEqualTo("201 OPEN"));
        String orderId = text(By.cssSelector("#order-result dd[data-field='order']"));
        await().atMost(PUSHED).untilAsserted(() ->
                assertThat(text(By.cssSelector("#holdings tr[data-symbol='BHP'] td.reserved"))).isEqualTo("4"));
        browser.findElement(By.cssSelector("#orders tr[data-order-id='" + orderId + "'] button.cancel")).click();
        await().atMost(PUSHED).untilAsserted(() -> {
            assertThat(text(orderStatus(orderId))).isEqualTo("CANCELLED");
            assertThat(text(By.cssSelector("#holdings tr[data-symbol='BHP'] td.reserved"))).isEqualTo("0");
        });
        assertThat(text(By.cssSelector("#order-result dd[data-field='status']"))).isEqualTo("200 CANCELLED");
    }

    @Test
    @Order(4)
    void an_order_for_another_regions_symbol_is_pending_there_then_open_and_is_cancelled_at_home() {
        placeThroughForm("AAPL", "BUY", "LIMIT", "2", "100.00", null);
        await().atMost(PUSHED).untilAsserted(() -> assertThat(text(By.cssSelector("#order-result dd[data-field='status']")))
                .isEqualTo("202 PENDING — stored here, matched in nvirginia"));
        String orderId = text(By.cssSelector("#order-result dd[data-field='order']"));
        await().atMost(REPLICATED).untilAsserted(() -> assertThat(text(orderStatus(orderId))).isEqualTo("OPEN"));
        assertThat(text(By.cssSelector("#orders tr[data-order-id='" + orderId + "'] td:nth-child(11)"))).isEqualTo("sydney");
        assertThat(text(By.cssSelector("#orders tr[data-order-id='" + orderId + "'] td:nth-child(12)"))).isEqualTo("nvirginia");
        browser.findElement(By.cssSelector("#orders tr[data-order-id='" + orderId + "'] button.cancel")).click();
        await().atMost(PUSHED).untilAsserted(() ->
                assertThat(text(By.cssSelector("#order-result dd[data-field='status']"))).isEqualTo("200 CANCELLED"));
        await().atMost(REPLICATED).untilAsserted(() -> assertThat(text(orderStatus(orderId))).isEqualTo("CANCELLED"));
    }

    /**
     * Orders for N. Virginia's symbol placed on Sydney's page: once they are open at home, the page's
     * reads of its order list are made to fail (its {@code fetch} refuses them), so only the stream
     * can tell it anything more. A ticker in N. Virginia fills one and the other is cancelled through
     * N. Virginia's API, not the page: the page shows the fill, the order FILLED and the other
     * CANCELLED, in the same document (no navigation), from N. Virginia's Kafka.
     */
    @Test
    @Order(5)
    void another_regions_fill_and_cancel_are_pushed_to_the_page_without_reading_the_orders_again() {
        placeThroughForm("AAPL", "BUY", "LIMIT", "3", "200.00", null);
        await().atMost(PUSHED).untilAsserted(() -> assertThat(text(By.cssSelector("#order-result dd[data-field='status']")))
                .startsWith("202 PENDING"));
        String toFill = text(By.cssSelector("#order-result dd[data-field='order']"));
        placeThroughForm("AAPL", "BUY", "LIMIT", "1", "100.00", null);
        await().atMost(PUSHED).untilAsserted(() -> assertThat(text(By.cssSelector("#order-result dd[data-field='order']")))
                .isNotEqualTo(toFill));
        String toCancel = text(By.cssSelector("#order-result dd[data-field='order']"));
        await().atMost(REPLICATED).untilAsserted(() -> {
            assertThat(text(orderStatus(toFill))).isEqualTo("OPEN");
            assertThat(text(orderStatus(toCancel))).isEqualTo("OPEN");
        });

        JavascriptExecutor js = (JavascriptExecutor) browser;
        js.executeScript("window.sameDocument = true; window.listReads = 0; window.realFetch = window.fetch;"
                + "window.fetch = (url, options) => String(url).startsWith('/api/v1/orders?')"
                + " ? (window.listReads++, Promise.reject(new TypeError('order list reads refused by the test')))"
                + " : window.realFetch(url, options);");
        try {
            us.tick("AAPL", 19_900, 1_000);
            await().atMost(REPLICATED).untilAsserted(() -> {
                assertThat(text(By.cssSelector("#fills tr[data-order-id='" + toFill + "'] td:nth-child(4)"))).isEqualTo("3");
                assertThat(text(By.cssSelector("#fills tr[data-order-id='" + toFill + "'] td:nth-child(6)")))
                        .isEqualTo("nvirginia");
                assertThat(text(orderStatus(toFill))).isEqualTo("FILLED");
            });
            assertThat(text(By.cssSelector("#orders tr[data-order-id='" + toFill + "'] td:nth-child(9)")))
                    .as("the average price from the pushed totals").isEqualTo("199.00");

            BrokerApi.Response cancelled = nvirginia.api.cancel(token, toCancel);
            assertThat(cancelled.status()).as(cancelled.toString()).isEqualTo(200);
            await().atMost(REPLICATED).untilAsserted(() -> assertThat(text(orderStatus(toCancel))).isEqualTo("CANCELLED"));

            assertThat(js.executeScript("return window.sameDocument === true;")).as("no navigation").isEqualTo(true);
            assertThat(((Number) js.executeScript("return window.listReads;")).longValue())
                    .as("the page tried to read its orders (after each push) and was refused every time").isPositive();
        } finally {
            js.executeScript("window.fetch = window.realFetch;");
        }
    }

    @Test
    @Order(6)
    void rules_are_checked_before_sending_and_a_refusal_shows_the_servers_problem_details() {
        int placements = browser.findElements(By.cssSelector("#placements tbody tr")).size();
        placeThroughForm("BHP", "BUY", "LIMIT", "1", "45.001", null);
        assertThat(text(By.id("o-limit-error"))).contains("at most two decimals");
        assertThat(browser.findElement(By.id("o-limit")).getAttribute("aria-invalid")).isEqualTo("true");
        placeThroughForm("BHP", "BUY", "MARKET", "0", null, null);
        assertThat(text(By.id("o-quantity-error"))).contains("whole number of shares");
        assertThat(browser.findElements(By.cssSelector("#placements tbody tr"))).hasSize(placements);

        placeThroughForm("BHP", "SELL", "LIMIT", "1000", "45.00", null);
        await().atMost(PUSHED).untilAsserted(() -> assertThat(text(By.cssSelector("#order-result dd[data-field='status']")))
                .isEqualTo("422"));
        assertThat(text(By.cssSelector("#order-result dd[data-field='title']"))).isNotBlank();
        assertThat(text(By.cssSelector("#order-result dd[data-field='detail']"))).containsIgnoringCase("shares");
        assertThat(text(By.cssSelector("#order-result dd[data-field='order']"))).startsWith("REJECTED");
        assertThat(browser.findElements(By.cssSelector("#placements tbody tr"))).hasSize(placements + 1);
        screenshot("web-page-refusal.png");
    }

    @Test
    @Order(7)
    void the_other_regions_page_shows_the_same_orders() {
        List<String> here = browser.findElements(By.cssSelector("#orders tbody tr")).stream()
                .map(r -> r.getAttribute("data-order-id")).toList();
        assertThat(here).hasSizeGreaterThanOrEqualTo(3).contains(filledOrderId);
        browser.findElement(By.linkText("nvirginia (NYSE, NASDAQ)")).click();
        await().atMost(PUSHED).untilAsserted(() -> assertThat(text(By.id("served-by"))).contains("served by nvirginia"));
        signIn();
        await().atMost(REPLICATED).untilAsserted(() -> {
            List<String> there = browser.findElements(By.cssSelector("#orders tbody tr")).stream()
                    .map(r -> r.getAttribute("data-order-id")).toList();
            assertThat(there).containsExactlyInAnyOrderElementsOf(here);
            assertThat(text(orderStatus(filledOrderId))).isEqualTo("FILLED");
        });
        assertThat(text(By.cssSelector("#prices tr[data-symbol='BHP'] td.source"))).isEqualTo("replicated");
        screenshot("web-page-nvirginia.png");
    }

    @Test
    @Order(8)
    void a_market_order_for_an_unreachable_home_region_is_refused_with_its_retry_time() {
        browser.get(sydney.api.baseUrl() + "/");
        signIn();
        nvirginia.close();
        nvirginia = null;
        placeThroughForm("AAPL", "BUY", "MARKET", "1", null, null);
        await().atMost(PUSHED).untilAsserted(() -> assertThat(text(By.cssSelector("#order-result dd[data-field='status']")))
                .isEqualTo("503"));
        assertThat(text(By.cssSelector("#order-result dd[data-field='Retry-After']"))).matches("\\d+ s — try again then");
        assertThat(text(By.cssSelector("#order-result dd[data-field='detail']"))).contains("nvirginia");
        screenshot("web-page-unreachable.png");
    }

    // ---- the page, as a person uses it

    private void signIn() {
        await().atMost(PUSHED).until(() -> !browser.findElements(By.id("token")).isEmpty());
        if (!browser.findElement(By.id("app")).isDisplayed()) {
            WebElement field = browser.findElement(By.id("token"));
            field.clear();
            field.sendKeys(token, Keys.ENTER);
        }
        await().atMost(REPLICATED).untilAsserted(() -> {
            assertThat(browser.findElement(By.id("app")).isDisplayed()).isTrue();
            assertThat(text(By.id("customer"))).isEqualTo(customerId);
            assertThat(text(By.id("connection"))).startsWith("Live");
        });
    }

    private void placeThroughForm(String symbol, String side, String type, String quantity, String limit, String stop) {
        WebElement symbolField = browser.findElement(By.id("o-symbol"));
        symbolField.clear();
        symbolField.sendKeys(symbol);
        browser.findElement(By.cssSelector("input[name='side'][value='" + side + "']")).click();
        new Select(browser.findElement(By.id("o-type"))).selectByValue(type);
        type(By.id("o-quantity"), quantity);
        type(By.id("o-limit"), limit);
        type(By.id("o-stop"), stop);
        browser.findElement(By.cssSelector("#order-form button[type='submit']")).click();
    }

    private void type(By field, String value) {
        WebElement e = browser.findElement(field);
        if (e.isEnabled()) {
            e.clear();
            if (value != null) {
                e.sendKeys(value);
            }
        }
    }

    private static By priceOf(String symbol) {
        return By.cssSelector("#prices tr[data-symbol='" + symbol + "'] td.price");
    }

    private static By orderStatus(String orderId) {
        return By.cssSelector("#orders tr[data-order-id='" + orderId + "'] td.status");
    }

    private static By reservedCash(String currency) {
        return By.cssSelector("#cash tr[data-currency='" + currency + "'] td.reserved");
    }

    /** An element's text, or "" while it is missing or being replaced (the page redraws tables as data arrives). */
    private String text(By by) {
        return attempt(() -> browser.findElement(by).getText().trim());
    }

    private static String attempt(Supplier<String> read) {
        try {
            return read.get();
        } catch (WebDriverException e) {
            return "";
        }
    }

    private void screenshot(String name) {
        byte[] png = ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES);
        try {
            Path root = Path.of(System.getProperty("geobroker.root", ".."));
            Path target = Path.of("target", "web-page");
            Files.createDirectories(target);
            Files.write(target.resolve(name), png);
            if (Boolean.getBoolean("geobroker.screenshots.write")) {
                Path figures = root.resolve("docs").resolve("figures");
                Files.createDirectories(figures);
                Files.write(figures.resolve(name), png);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot write the screenshot " + name, e);
        }
    }
}
