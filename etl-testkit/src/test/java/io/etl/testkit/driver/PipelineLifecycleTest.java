package io.etl.testkit.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.etl.core.Pipeline;
import io.etl.core.PipelineResult;
import io.etl.core.RunningPipeline;
import io.etl.core.config.BatchConfig;
import io.etl.core.config.CheckpointConfig;
import io.etl.core.config.MetricsConfig;
import io.etl.core.config.PipelineConfig;
import io.etl.core.config.SinkPoolConfig;
import io.etl.core.error.ConfigException;
import io.etl.core.metrics.EtlMetrics;
import io.etl.core.source.SourcePartition;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class PipelineLifecycleTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Test
    void stopForceSealsPartialBatchesAndCommitsThemBeforeExiting() throws Exception {
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<String> in = driver.source("in", 1);
            // a batch that would only seal after a minute or at 10,000 records, and that keeps lingering
            // because the shard's first batch stays unacknowledged and fills its one-batch window (adaptive
            // batching seals at once only while the window has room)
            TestSink<String> out = driver.<String>sink(
                            "out",
                            PipelineTestDriver.DEFAULT_POOL
                                    .withInflight(1)
                                    .withBatch(new BatchConfig(10_000, null, Duration.ofMinutes(1))))
                    .holdAcks();
            RunningPipeline running =
                    driver.start(Pipeline.named("drain").from(in).to(out));
            in.send("k", "first");
            await().atMost(WAIT).until(() -> out.heldWrites() == 1);
            for (int i = 0; i < 10; i++) {
                in.send("k", "v" + i);
            }
            await().atMost(WAIT).until(() -> pending(driver) == 11.0);
            assertThat(out.writeAttempts()).isEqualTo(1);

            running.stop();
            out.releaseAcks();
            // the drain seals the open batch although its linger (a minute) is far from expired
            PipelineResult result = running.result().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(out.writeAttempts()).isEqualTo(2);
            assertThat(result.status()).isEqualTo(PipelineResult.Status.COMPLETED);
            assertThat(result.exitCode()).isZero();
            assertThat(out.values()).hasSize(11);
            assertThat(in.committed(0)).isEqualTo(11L);
        }
    }

    @Test
    void recordsStillBufferedAtTheStopAreCountedUnprocessedAndLeftUncommitted() throws Exception {
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<String> in = driver.source("in", 1);
            TestSink<String> out = oneBatchAtATime(driver);
            sendTen(in);
            RunningPipeline running =
                    driver.start(Pipeline.named("buffered").from(in).to(out));
            awaitBlocked(in);

            running.stop();
            out.releaseAcks();
            PipelineResult result = running.result().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);

            assertThat(result.status()).isEqualTo(PipelineResult.Status.COMPLETED);
            assertThat(result.recordsIn()).isEqualTo(10);
            long written = out.values().size();
            assertThat(written).isBetween(1L, 9L);
            assertThat(in.committed(0)).isEqualTo(written);
            assertThat(unprocessed(driver)).isEqualTo(10.0 - written);
        }
    }

    @Test
    void bufferedRecordsOfARevokedPartitionAreCountedUnprocessedAndReadAgain() {
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<String> in = driver.source("in", 1);
            TestSink<String> out = oneBatchAtATime(driver);
            sendTen(in);
            driver.start(Pipeline.named("revoked").from(in).to(out));
            awaitBlocked(in);

            var revoked = in.revoke(0, Duration.ofMillis(200));
            // what was never pushed into the chain is forgotten at once, counted as unprocessed; the acks are
            // held until then, so the blocked pipeline cannot push it first
            await().atMost(WAIT).until(() -> unprocessed(driver) > 0.0);
            out.releaseAcks();
            long committed = revoked.join().getOrDefault(new SourcePartition("in", 0), 0L);
            // not committed, and read again after reassignment
            assertThat(unprocessed(driver)).isLessThanOrEqualTo(10.0 - committed);
            in.reassign(0);
            await().atMost(WAIT).until(() -> in.committed(0) == 10L);
            assertThat(out.values()).contains("v9");
        }
    }

    @Test
    void batchesStillUnacknowledgedAtTheDrainDeadlineAreAbandonedLoudlyAndNotCommitted() {
        PipelineConfig config = PipelineConfig.defaults()
                .withCheckpoint(CheckpointConfig.custom()
                        .interval(Duration.ofMillis(20))
                        .drainTimeout(Duration.ofMillis(300))
                        .stalledFailAfter(Duration.ofSeconds(5))
                        .build());
        try (PipelineTestDriver driver = PipelineTestDriver.create(config)) {
            TestSource<String> in = driver.source("in", 1);
            TestSink<String> out = driver.<String>sink("out").holdAcks();
            RunningPipeline running =
                    driver.start(Pipeline.named("abandon").from(in).to(out));
            in.send("k", "a");
            await().atMost(WAIT).until(() -> out.heldWrites() == 1);

            PipelineResult result = running.stopAndWait(WAIT);
            assertThat(result.status()).isEqualTo(PipelineResult.Status.ABANDONED);
            assertThat(result.exitCode()).isEqualTo(1);
            assertThat(result.abandonedBatches()).isEqualTo(1);
            assertThat(in.committed(0)).isLessThanOrEqualTo(0L);
            assertThat(driver.meterRegistry()
                            .get(EtlMetrics.SINK_ABANDONED_BATCHES)
                            .counter()
                            .count())
                    .isEqualTo(1.0);
        }
    }

    @Test
    void revokeWaitsForInFlightOutputThenCommitsAndLateAcknowledgementsCommitNothing() {
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<String> in = driver.source("in", 2);
            TestSink<String> out = driver.sink("out", PipelineTestDriver.DEFAULT_POOL.withInflight(1));
            driver.start(Pipeline.named("revoke").from(in).to(out));
            in.send(0, "a", "a0");
            driver.awaitCommitted(WAIT);

            out.holdAcks();
            in.send(0, "a", "a1");
            await().atMost(WAIT).until(() -> out.heldWrites() == 1);
            var revoked = in.revoke(0, Duration.ofMillis(200))
                    .orTimeout(10, TimeUnit.SECONDS)
                    .join();
            // the revoke could not wait for the held write: it commits only what was durable
            assertThat(revoked).containsEntry(new SourcePartition("in", 0), 1L);

            out.releaseAcks();
            in.send(1, "b", "b0");
            await().atMost(WAIT).until(() -> in.committed(1) == 1L);
            assertThat(in.committed(0))
                    .as("late acknowledgement of a released partition")
                    .isEqualTo(1L);

            in.reassign(0);
            driver.awaitCommitted(WAIT);
            assertThat(out.values()).containsSubsequence("a0", "a1").contains("b0");
            assertThat(out.values().stream().filter("a1"::equals))
                    .as("a1 replays after reassignment")
                    .hasSize(2);
        }
    }

    @Test
    void buildRejectsDuplicateNamesAndMissingSinksBeforeAnyIo() {
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<String> in = driver.source("in", 1);
            TestSink<String> a = driver.sink("a");
            TestSink<String> otherA = driver.sink("a");
            Pipeline pipeline = Pipeline.named("bad")
                    .from(in)
                    .map("same", v -> v)
                    .filter("same", v -> true)
                    .split(
                            "route",
                            s -> s.branch("x", v -> true, a)
                                    .branch("y", v -> true, null)
                                    .branch("z", v -> false, otherA)
                                    .dropUnmatched());

            assertThatThrownBy(pipeline::build)
                    .isInstanceOf(ConfigException.class)
                    .satisfies(e -> assertThat(((ConfigException) e).problems()).hasSize(3))
                    .hasMessageContaining("duplicate operator name 'same'")
                    .hasMessageContaining("branch 'y'")
                    .hasMessageContaining("has no sink")
                    .hasMessageContaining("two different sinks are named 'a'");
            assertThat(in.pauseCount()).isZero();
        }
    }

    @Test
    void aSourceThatCannotOpenFailsThePipelineWithItsProblem() {
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<String> in = driver.<String>source("in", 1)
                    .failOpening(ConfigException.of("source.in.kafka.topics", "topic 'in' not found"));
            TestSink<String> out = driver.sink("out");
            RunningPipeline running =
                    driver.start(Pipeline.named("source-cannot-open").from(in).to(out));

            PipelineResult result =
                    running.result().orTimeout(10, TimeUnit.SECONDS).join();

            assertThat(result.status()).isEqualTo(PipelineResult.Status.FAILED);
            assertThat(result.failure())
                    .isInstanceOf(ConfigException.class)
                    .hasMessageContaining("source.in.kafka.topics");
            assertThat(out.writeAttempts()).isZero();
        }
    }

    @Test
    void aSinkThatCannotOpenFailsThePipelineAtOnceWithoutWaitingForTheDrainTimeout() {
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<String> in = driver.source("in", 1);
            TestSink<String> ok = driver.sink("ok");
            TestSink<String> broken = driver.<String>sink("broken")
                    .failOpening(ConfigException.of("sinks.broken.kafka.topic", "topic 'nope' does not exist"));
            RunningPipeline running = driver.start(Pipeline.named("cannot-open")
                    .from(in)
                    .split("s", s -> s.branch("a", v -> true, ok).otherwise(broken)));

            PipelineResult result =
                    running.result().orTimeout(10, TimeUnit.SECONDS).join();
            assertThat(result.status()).isEqualTo(PipelineResult.Status.FAILED);
            assertThat(result.failure())
                    .isInstanceOf(ConfigException.class)
                    .hasMessageContaining("sinks.broken.kafka.topic");
            assertThat(result.elapsed()).isLessThan(Duration.ofSeconds(5));
            assertThat(in.pauseCount()).isZero();
        }
    }

    @Test
    void aStreamCanBeExtendedOnlyOnce() {
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            var stream = Pipeline.named("fork").from(driver.<String>source("in", 1));
            stream.map(v -> v);
            assertThatThrownBy(() -> stream.filter(v -> true))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("split");
        }
    }

    /** One record per batch, one batch in flight (its ack held) and one queued: the third record blocks. */
    private static TestSink<String> oneBatchAtATime(PipelineTestDriver driver) {
        return driver.<String>sink(
                        "out",
                        PipelineTestDriver.DEFAULT_POOL
                                .withInflight(1)
                                .withQueue(1)
                                .withBatch(new BatchConfig(1, null, Duration.ofMillis(1))))
                .holdAcks();
    }

    /** Ten records waiting before the start, so that the pipeline's first poll takes all of them. */
    private static void sendTen(TestSource<String> in) {
        for (int i = 0; i < 10; i++) {
            in.send("k", "v" + i);
        }
    }

    /** Waits until the full pool paused the source, with the records it could not push still buffered. */
    private static void awaitBlocked(TestSource<String> in) {
        await().atMost(WAIT).until(in::isPaused);
    }

    private static double unprocessed(PipelineTestDriver driver) {
        return driver.meterRegistry()
                .get(EtlMetrics.SOURCE_RECORDS_UNPROCESSED)
                .counter()
                .count();
    }

    private static double pending(PipelineTestDriver driver) {
        return DriverMeters.gauge(driver, EtlMetrics.CHECKPOINT_PENDING_RECORDS);
    }

    @Test
    void poolSettingsBuiltInCodeAreRejectedLikeYamlOnesBeforeASinkCanHaveThem() {
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            assertThatThrownBy(() -> driver.sink("out", new SinkPoolConfig(0, null, 5000, null, null, null, null)))
                    .isInstanceOf(ConfigException.class)
                    .hasMessageContaining("shards: must be between 1 and 256")
                    .hasMessageContaining("queue: must be between 1 and 1024");
            assertThatThrownBy(
                            () -> driver.sink("out", SinkPoolConfig.defaults().withShards(0)))
                    .isInstanceOf(ConfigException.class)
                    .hasMessage("invalid configuration: shards: must be between 1 and 256");
        }
    }

    @Test
    void metricsDisabledRegistersNoMeterInTheGivenRegistry() {
        PipelineConfig quiet = PipelineConfig.custom()
                .checkpoint(CheckpointConfig.custom()
                        .interval(Duration.ofMillis(10))
                        .drainTimeout(Duration.ofSeconds(10))
                        .stalledFailAfter(Duration.ofSeconds(2))
                        .build())
                .metrics(MetricsConfig.custom().enabled(false).build())
                .build();
        try (PipelineTestDriver driver = PipelineTestDriver.create(quiet)) {
            TestSource<String> in = driver.source("in", 1);
            TestSink<String> out = driver.sink("out");
            driver.start(Pipeline.named("quiet").from(in).to(out));
            in.send("k", "a");
            driver.awaitCommitted(Duration.ofSeconds(10));

            assertThat(out.values()).containsExactly("a");
            assertThat(driver.meterRegistry().getMeters()).isEmpty();
        }
    }
}
