package io.etl.testkit.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etl.core.Pipeline;
import io.etl.core.config.BatchConfig;
import io.etl.core.config.CheckpointConfig;
import io.etl.core.config.PipelineConfig;
import io.etl.core.config.SinkPoolConfig;
import io.etl.core.error.ErrorPolicy;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** What a stalled output can make the pipeline hold in memory: each is bounded by configuration. */
class PipelineMemoryBoundsTest {

    private static final Duration WAIT = Duration.ofSeconds(15);
    private static final CheckpointConfig FAST = CheckpointConfig.custom()
            .interval(Duration.ofMillis(10))
            .drainTimeout(Duration.ofSeconds(10))
            .stalledFailAfter(Duration.ofMinutes(5))
            .build();

    @Test
    void recordsTrackedBehindASlowRecordAreBoundedByMaxPendingRecords() {
        PipelineConfig config = PipelineConfig.defaults().withCheckpoint(FAST.withMaxPendingRecords(1_000));
        try (PipelineTestDriver driver = PipelineTestDriver.create(config)) {
            TestSource<String> in = driver.source("in", 1);
            TestSink<String> slow = driver.<String>sink("slow").holdAcks();
            TestSink<String> fast = driver.sink("fast");
            Routes<String> firstToSlow =
                    s -> s.branch("to-slow", v -> v.equals("first"), slow).otherwise(fast);
            driver.start(Pipeline.named("stalled-head").from(in).split("route", firstToSlow));
            in.send("k", "first");
            for (int i = 0; i < 10_000; i++) {
                in.send("k", "v" + i);
            }

            // every later record is done at once, but it stays tracked behind the held one
            await().atMost(WAIT).until(in::isPaused);
            await().during(Duration.ofMillis(200))
                    .atMost(WAIT)
                    .until(() -> fast.values().size() < 2_000);

            slow.releaseAcks();
            driver.awaitCommitted(WAIT);
            assertThat(fast.values()).hasSize(10_000);
        }
    }

    @Test
    void deadLettersInFlightAreBounded() {
        AtomicInteger handed = new AtomicInteger();
        CompletableFuture<Void> stored = new CompletableFuture<>();
        try (PipelineTestDriver driver =
                PipelineTestDriver.create(PipelineConfig.defaults().withCheckpoint(FAST))) {
            TestSource<String> in = driver.source("in", 1);
            TestSink<Integer> out = driver.sink("out");
            driver.start(Pipeline.named("dead-letters")
                    .deadLetter((meta, value, error) -> {
                        handed.incrementAndGet();
                        return stored;
                    })
                    .from(in)
                    .map("parse", Integer::parseInt)
                    .onError(ErrorPolicy.DEAD_LETTER)
                    .to(out));
            for (int i = 0; i < 30_000; i++) {
                in.send("k", "bad-" + i);
            }

            await().atMost(WAIT).until(in::isPaused);
            await().during(Duration.ofMillis(200)).atMost(WAIT).until(() -> handed.get() < 11_000);

            stored.complete(null);
            driver.awaitCommitted(WAIT);
            assertThat(handed.get()).isEqualTo(30_000);
        }
    }

    @Test
    void aLargeFanOutIsPulledOnlyAsFastAsTheSinkTakesIt() {
        AtomicInteger pulled = new AtomicInteger();
        SinkPoolConfig small = PipelineTestDriver.DEFAULT_POOL
                .withQueue(2)
                .withInflight(1)
                .withBatch(new BatchConfig(10, null, Duration.ofMillis(1)));
        try (PipelineTestDriver driver =
                PipelineTestDriver.create(PipelineConfig.defaults().withCheckpoint(FAST))) {
            TestSource<String> in = driver.source("in", 1);
            TestSink<String> out = driver.<String>sink("out", small).holdAcks();
            driver.start(Pipeline.named("fan-out")
                    .from(in)
                    .<String>flatMap(
                            "explode", v -> LazyExpansion.of(v, 20_000, (value, n) -> pulled.incrementAndGet()))
                    .to(out));
            in.send("k", "x");

            // with acknowledgements held: one batch in flight, two queued, two waiting, one open
            await().atMost(WAIT).until(() -> pulled.get() >= 50);
            await().during(Duration.ofMillis(300)).atMost(WAIT).until(() -> pulled.get() <= 100);

            out.releaseAcks();
            driver.awaitCommitted(Duration.ofSeconds(60));
            assertThat(out.values()).hasSize(20_000);
        }
    }
}
