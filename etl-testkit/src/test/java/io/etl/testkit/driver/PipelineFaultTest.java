package io.etl.testkit.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etl.core.Pipeline;
import io.etl.core.PipelineResult;
import io.etl.core.RunningPipeline;
import io.etl.core.config.BatchConfig;
import io.etl.core.config.BreakerConfig;
import io.etl.core.config.RetryConfig;
import io.etl.core.config.SinkPoolConfig;
import io.etl.core.error.FatalException;
import io.etl.core.metrics.EtlMetrics;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PipelineFaultTest {

    private static final Duration WAIT = Duration.ofSeconds(15);
    private static final SinkPoolConfig FAST_RETRY = SinkPoolConfig.from(PipelineTestDriver.DEFAULT_POOL)
            .retry(RetryConfig.custom()
                    .initialBackoff(Duration.ofMillis(5))
                    .maxBackoff(Duration.ofMillis(20))
                    .jitter(0)
                    .build())
            .breaker(BreakerConfig.custom().enabled(false).build())
            .build();

    @ParameterizedTest(name = "messages handed over as they come: {0}")
    @ValueSource(booleans = {true, false})
    void retryThenSuccessDeliversEverythingAndKeepsPerKeyOrder(boolean asTheyCome) {
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<String> in = driver.source("in", 2);
            TestSink<String> out = driver.<String>sink(
                            "out",
                            FAST_RETRY.withInflight(4).withBatch(new BatchConfig(10, null, Duration.ofMillis(1))))
                    .takesMessagesAsTheyCome(asTheyCome)
                    .failRetryably(5);
            driver.start(Pipeline.named("retry").from(in).to(out));
            for (int i = 0; i < 500; i++) {
                String key = "key-" + (i % 5);
                in.send(key, key + ":" + i);
            }
            driver.awaitCommitted(WAIT);

            assertThat(out.writeAttempts()).isGreaterThan(5);
            assertThat(new HashSet<>(out.values())).hasSize(500);
            assertLastWriteOfEachKeyIsItsNewest(out.values());
            // a writer that may block gets sealed batches only
            assertThat(out.handedOverEarly() > 0).isEqualTo(asTheyCome && out.sendsWithoutBlocking());
            assertThat(driver.meterRegistry()
                            .get(EtlMetrics.SINK_RETRIES)
                            .counter()
                            .count())
                    .isGreaterThan(0);
        }
    }

    /**
     * A batch retried go-back-N may repeat values, but reading the output front to back, every key's value
     * sequence must end with its newest value and never go back without a replay of what follows.
     */
    private static void assertLastWriteOfEachKeyIsItsNewest(List<String> values) {
        Map<String, Integer> last = new HashMap<>();
        Map<String, Integer> max = new HashMap<>();
        for (String v : values) {
            String[] parts = v.split(":");
            int seq = Integer.parseInt(parts[1]);
            last.put(parts[0], seq);
            max.merge(parts[0], seq, Math::max);
        }
        assertThat(last).isEqualTo(max);
    }

    @Test
    void fatalBatchStallsItsPartitionAndFailsThePipelineNamingPartitionAndOffset() {
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<String> in = driver.source("orders", 1);
            TestSink<String> out = driver.sink("out", FAST_RETRY);
            RunningPipeline running =
                    driver.start(Pipeline.named("fatal").from(in).to(out));
            DriverSteps.commitOneRecordThenFailTheNextBatchFatally(driver, in, out, WAIT);
            in.send("k", "c");

            PipelineResult result = running.result()
                    .orTimeout(WAIT.toSeconds(), TimeUnit.SECONDS)
                    .join();
            assertThat(result.status()).isEqualTo(PipelineResult.Status.FAILED);
            assertThat(result.failure())
                    .isInstanceOf(FatalException.class)
                    .hasMessageContaining("orders-0")
                    .hasMessageContaining("offset 1");
            assertThat(in.committed(0)).isEqualTo(1L);
            assertThat(result.elapsed()).isGreaterThanOrEqualTo(Duration.ofSeconds(2));
        }
    }

    @Test
    void breakerOpensUnderRepeatedFailuresAndHealsWithSeveralBatchesWaitingForRetry() {
        SinkPoolConfig pool = PipelineTestDriver.DEFAULT_POOL
                .withInflight(4)
                .withBatch(new BatchConfig(1, null, Duration.ofMillis(1)))
                .withRetry(new RetryConfig(Duration.ofMillis(5), Duration.ofMillis(10), 2.0, 0.0, 0))
                .withBreaker(new BreakerConfig(true, 50f, 4, 4, Duration.ofMillis(200)));
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<String> in = driver.source("in", 1);
            TestSink<String> out =
                    driver.<String>sink("out", pool).failRetryably(12).slowAcks(Duration.ofMillis(20));
            for (int i = 0; i < 20; i++) {
                in.send("k", "k:" + i);
            }
            // all records are there at the first poll: four batches are in flight when the breaker opens
            driver.start(Pipeline.named("breaker").from(in).to(out));
            await().atMost(WAIT).until(() -> healthy(driver) == 0.0);
            driver.awaitCommitted(WAIT);
            await().atMost(WAIT).until(() -> healthy(driver) == 1.0);
            assertThat(new HashSet<>(out.values())).hasSize(20);
            assertLastWriteOfEachKeyIsItsNewest(out.values());
        }
    }

    private static double healthy(PipelineTestDriver driver) {
        return driver.meterRegistry().get(EtlMetrics.SINK_SHARD_HEALTHY).gauge().value();
    }

    /**
     * Failures arrive while the next batch's first attempt is open and taking records as they come: the go-back-N
     * waits for that batch to be sealed and writes it again after the failed one.
     */
    @Test
    void aRetryWaitsForTheOpenAttemptAndWritesItAgainAfterTheFailedBatch() {
        SinkPoolConfig pool = FAST_RETRY.withInflight(2).withBatch(new BatchConfig(1000, null, Duration.ofSeconds(5)));
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<String> in = driver.source("in", 1);
            TestSink<String> out =
                    driver.<String>sink("out", pool).sendsWithoutBlocking(true).slowAcks(Duration.ofMillis(50));
            driver.start(Pipeline.named("open-retry").from(in).to(out));
            in.send("k", "k:0");
            await().atMost(WAIT).until(() -> out.values().size() == 1);
            out.failRetryably(1);
            for (int i = 1; i <= 300; i++) {
                in.send("k", "k:" + i);
            }
            driver.awaitCommitted(WAIT);

            assertThat(new HashSet<>(out.values())).hasSize(301);
            assertLastWriteOfEachKeyIsItsNewest(out.values());
            assertThat(out.handedOverEarly()).isGreaterThan(1);
        }
    }

    @Test
    void backpressurePausesTheSourceAndBoundsPendingRecordsWhenTheSinkNeverAcknowledges() {
        SinkPoolConfig pool = PipelineTestDriver.DEFAULT_POOL
                .withInflight(2)
                .withQueue(2)
                .withBatch(new BatchConfig(50, null, Duration.ofMillis(1)));
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<String> in = driver.source("in", 1);
            TestSink<String> out = driver.<String>sink("out", pool).holdAcks();
            driver.start(Pipeline.named("backpressure").from(in).to(out));
            for (int i = 0; i < 20_000; i++) {
                in.send("k" + i, "v" + i);
            }
            await().atMost(WAIT).until(in::isPaused);
            // in flight + queued + one blocked batch + the open batch + one poll's worth of buffered records
            long bound = (2 + 2 + 1 + 1) * 50L + 500;
            await().during(Duration.ofMillis(300)).atMost(WAIT).until(() -> pending(driver) <= bound && in.isPaused());
            assertThat(driver.meterRegistry()
                            .get(EtlMetrics.SOURCE_PAUSED)
                            .gauge()
                            .value())
                    .isEqualTo(1.0);
            assertThat(out.heldWrites()).isEqualTo(2);

            out.releaseAcks();
            driver.awaitCommitted(WAIT);
            assertThat(out.values()).hasSize(20_000);
            assertThat(in.isPaused()).isFalse();
        }
    }

    private static double pending(PipelineTestDriver driver) {
        return driver.meterRegistry()
                .get(EtlMetrics.CHECKPOINT_PENDING_RECORDS)
                .gauge()
                .value();
    }
}
