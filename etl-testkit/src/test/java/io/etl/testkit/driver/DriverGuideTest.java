package io.etl.testkit.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.etl.core.Pipeline;
import io.etl.core.PipelineResult;
import io.etl.core.config.CheckpointConfig;
import io.etl.core.config.PipelineConfig;
import io.etl.core.error.DeadLetter;
import io.etl.core.error.ErrorPolicy;
import io.etl.core.error.RecordException;
import io.etl.core.record.Header;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * What docs/testing.md shows of the driver, each snippet a region of this file (the docs quote it verbatim): typed
 * input and output, undecodable bytes, captured dead letters, the driver's clock.
 */
class DriverGuideTest {

    /** An order as its JSON topic holds it. */
    record Order(int id, String region, long cents) {}

    /** What the pipeline writes for an order. */
    record RoutedOrder(int id, String region, String amount) {

        static RoutedOrder of(Order order) {
            if (order.cents() < 0) {
                throw new IllegalArgumentException("negative amount in order " + order.id());
            }
            return new RoutedOrder(
                    order.id(),
                    order.region().toUpperCase(Locale.ROOT),
                    String.format(Locale.ROOT, "%d.%02d", order.cents() / 100, order.cents() % 100));
        }
    }

    /** The chain under test, with its parts as parameters, as a pipeline's factory would build it on Kafka. */
    static Pipeline routing(TestSource<Order> orders, TestSink<RoutedOrder> eu, TestSink<RoutedOrder> rest) {
        return Pipeline.named("routing")
                .from(orders)
                .map("reshape", RoutedOrder::of)
                .onError(ErrorPolicy.DEAD_LETTER)
                .split(
                        "by-region",
                        s -> s.branch("eu", o -> o.region().equals("EU"), eu).otherwise(rest));
    }

    @Test
    void typedInputAndOutput() {
        // spotless:off
        // tag::typed[]
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<Order> orders = driver.input("orders", Order.class);
            TestSink<RoutedOrder> eu = driver.output("eu", RoutedOrder.class);
            TestSink<RoutedOrder> rest = driver.output("rest", RoutedOrder.class);
            driver.start(routing(orders, eu, rest));

            orders.send("order-1", new Order(1, "eu", 1250));                       // a value
            orders.sendText("order-2", "{\"id\": 2, \"region\": \"us\", \"cents\": 99}");  // the bytes a topic holds
            driver.awaitCommitted();

            assertThat(eu.values()).containsExactly(new RoutedOrder(1, "EU", "12.50"));
            assertThat(rest.values()).containsExactly(new RoutedOrder(2, "US", "0.99"));
        }
        // end::typed[]
        // spotless:on
    }

    @Test
    void undecodableInput() {
        // spotless:off
        // tag::undecodable[]
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<Order> orders = driver.input("orders", Order.class);   // on_error: fail, as a Kafka source
            driver.start(routing(orders, driver.output("eu", RoutedOrder.class), driver.output("rest", RoutedOrder.class)));

            orders.sendUndecodable("order-3", "{\"id\": 3, \"region\":".getBytes(StandardCharsets.UTF_8));

            PipelineResult result = driver.running().result().join();
            assertThat(result.failure()).isInstanceOf(RecordException.class)
                    .hasMessageContaining("decode error at orders-0@0");
        }
        // end::undecodable[]
        // spotless:on
    }

    @Test
    void deadLettersAreCapturedWithStageReasonAndOriginalBytes() {
        // spotless:off
        // tag::dead-letters[]
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<Order> orders = driver.input("orders", Order.class).onError(ErrorPolicy.DEAD_LETTER);
            TestSink<RoutedOrder> eu = driver.output("eu", RoutedOrder.class);
            driver.start(routing(orders, eu, driver.output("rest", RoutedOrder.class)));

            orders.send("order-4", new Order(4, "eu", -1));          // reshape throws: dead-lettered
            byte[] garbage = "not json".getBytes(StandardCharsets.UTF_8);
            orders.sendUndecodable("order-5", garbage);             // cannot decode: dead-lettered
            orders.send("order-6", new Order(6, "eu", 100));
            driver.awaitCommitted();                                // committed once the dead letters are durable

            assertThat(driver.deadLetters()).hasSize(2);
            DeadLetter reshape = driver.deadLetters().get(0);
            assertThat(reshape.stage()).isEqualTo("operator:reshape");
            assertThat(reshape.error().reason()).isEqualTo(RecordException.OPERATOR);
            assertThat(new String(reshape.value(), StandardCharsets.UTF_8)).contains("\"cents\":-1");
            DeadLetter decode = driver.deadLetters().get(1);
            assertThat(decode.stage()).isEqualTo(DeadLetter.DECODE_STAGE);
            assertThat(decode.error().reason()).isEqualTo(RecordException.DECODE);
            assertThat(decode.value()).isEqualTo(garbage);
            assertThat(decode.key()).isEqualTo("order-5".getBytes(StandardCharsets.UTF_8));
            assertThat(eu.values()).extracting(RoutedOrder::id).containsExactly(6);
        }
        // end::dead-letters[]
        // spotless:on
    }

    @Test
    void theClockStampsRecordsAndRunsTheCommitFloor() {
        // spotless:off
        // tag::clock[]
        PipelineConfig config = PipelineConfig.defaults()
                .withCheckpoint(CheckpointConfig.custom().interval(Duration.ofMinutes(1)).build());
        try (PipelineTestDriver driver = PipelineTestDriver.create(config)) {
            TestSource<String> in = driver.input("in", String.class);
            TestSink<String> out = driver.output("out", String.class);
            driver.start(Pipeline.named("stamps").from(in).to(out));

            in.send("k", "first");
            driver.awaitCommitted();                        // the first commit goes out at once
            in.send("k", "second");
            await().until(() -> out.values().size() == 2);
            assertThat(in.committed(0)).isEqualTo(1);       // the next waits for checkpoint.interval ...

            driver.advance(Duration.ofMinutes(1));          // ... which passes now
            driver.awaitCommitted();
            assertThat(out.received().get(1).meta().timestamp()).isEqualTo(driver.clock().millis() - 60_000);
        }
        // end::clock[]
        // spotless:on
    }

    @Test
    void advancingTheClockFailsAPartitionStalledBehindAFailedBatch() {
        PipelineConfig config = PipelineConfig.defaults()
                .withCheckpoint(CheckpointConfig.custom()
                        .interval(Duration.ofMillis(20))
                        .stalledFailAfter(Duration.ofHours(1))
                        .build());
        try (PipelineTestDriver driver = PipelineTestDriver.create(config)) {
            TestSource<String> in = driver.input("in", String.class);
            TestSink<String> out = driver.output("out", String.class).failFatally(1);
            driver.start(Pipeline.named("stall").from(in).to(out));
            in.send("k", "never written");
            await().atMost(Duration.ofSeconds(10)).until(() -> out.writeAttempts() == 1);
            await().during(Duration.ofMillis(200))
                    .until(() -> !driver.running().result().isDone());

            driver.advance(Duration.ofHours(1));

            PipelineResult result = driver.running().result().join();
            assertThat(result.failure()).hasMessageContaining("stalled at offset 0 for 1h");
        }
    }

    @Test
    void valuesKeepTheirEncodedBytesHeadersAndTheClocksTimestamp() {
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<Order> orders = driver.input("orders", Order.class, 3);
            TestSink<Order> out = driver.output("out", Order.class);
            driver.start(Pipeline.named("copy").from(orders).to(out));
            long stamp = driver.clock().millis();

            orders.send("k1", new Order(7, "apac", 5), Header.of("trace", "t-1"));
            driver.awaitCommitted();

            TestSink.Received<Order> received = out.received().get(0);
            assertThat(received.value()).isEqualTo(new Order(7, "apac", 5));
            assertThat(new String(received.meta().payload(), StandardCharsets.UTF_8))
                    .isEqualTo("{\"id\":7,\"region\":\"apac\",\"cents\":5}");
            assertThat(received.meta().headers()).containsExactly(Header.of("trace", "t-1"));
            assertThat(received.meta().timestamp()).isEqualTo(stamp);
        }
    }

    @Test
    void bytesThatDecodeAreRefusedAsUndecodable() {
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<Order> orders = driver.input("orders", Order.class);

            assertThatThrownBy(() -> orders.sendUndecodable("k", "{\"id\":1}".getBytes(StandardCharsets.UTF_8)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("decode as Order at source 'orders'; pipe them with sendBytes");
        }
    }

    @Test
    void aSourceWithoutATypeHasNoBytesToDecode() {
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<String> in = driver.source("in", 1);

            assertThatThrownBy(() -> in.sendText("k", "x"))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("create it with driver.input(name, type)");
        }
    }

    @Test
    void theClockOnlyMovesForward() {
        TestClock clock = TestClock.at(Instant.EPOCH);

        assertThatThrownBy(() -> clock.advance(Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class);
        assertThat(clock.advance(Duration.ofMillis(1500)).millis()).isEqualTo(1500);
        assertThat(clock.withZone(ZoneId.of("Europe/Paris")).millis()).isEqualTo(1500);
    }
}
