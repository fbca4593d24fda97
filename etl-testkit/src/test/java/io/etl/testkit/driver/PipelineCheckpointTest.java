package io.etl.testkit.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etl.core.Pipeline;
import io.etl.core.PipelineResult;
import io.etl.core.RunningPipeline;
import io.etl.core.config.BatchConfig;
import io.etl.core.config.CheckpointConfig;
import io.etl.core.config.PipelineConfig;
import io.etl.core.config.SinkPoolConfig;
import io.etl.core.error.FatalException;
import io.etl.core.metrics.EtlMetrics;
import io.etl.core.source.SourcePartition;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** When offsets are committed, and what counts as committed. */
class PipelineCheckpointTest {

    private static final Duration WAIT = Duration.ofSeconds(15);

    private static PipelineTestDriver driver(Duration interval) {
        return PipelineTestDriver.create(PipelineConfig.defaults()
                .withCheckpoint(CheckpointConfig.custom()
                        .interval(interval)
                        .drainTimeout(Duration.ofSeconds(10))
                        .stalledFailAfter(Duration.ofSeconds(2))
                        .build()));
    }

    /** Starts pipeline {@code name} from a one-partition source "in" to a sink "out"; returns the source. */
    private static TestSource<String> startPassThrough(PipelineTestDriver driver, String name) {
        TestSource<String> in = driver.source("in", 1);
        driver.start(Pipeline.named(name).from(in).to(driver.<String>sink("out")));
        return in;
    }

    @Test
    void commitsAsSoonAsTheWatermarkMovesNotOnlyEveryInterval() {
        try (PipelineTestDriver driver = driver(Duration.ofSeconds(3))) {
            TestSource<String> in = startPassThrough(driver, "prompt");
            long start = System.nanoTime();
            in.send("k", "a");

            await().atMost(Duration.ofSeconds(2)).until(() -> in.committed(0) == 1L);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
        }
    }

    @Test
    void leavesAtLeastTheIntervalBetweenTwoCommits() {
        try (PipelineTestDriver driver = driver(Duration.ofMillis(200))) {
            TestSource<String> in = startPassThrough(driver, "floor");
            long start = System.nanoTime();
            for (int i = 0; i < 40; i++) {
                in.send("k", "v" + i);
                await().pollDelay(Duration.ofMillis(25)).until(() -> true);
            }
            driver.awaitCommitted(WAIT);
            double seconds = (System.nanoTime() - start) / 1e9;

            // 40 watermark moves over ~1 s, but at most one commit per 200 ms (plus the first)
            assertThat(in.commitRequests()).isLessThanOrEqualTo((int) Math.ceil(seconds / 0.2) + 2);
        }
    }

    /**
     * An idle pipeline costs the group coordinator nothing: once its watermark is committed, no commit is sent
     * until a record moves it again, however often the interval passes.
     */
    @Test
    void sendsNoCommitWhileNoWatermarkMoves() {
        try (PipelineTestDriver driver = driver(Duration.ofMillis(10))) {
            TestSource<String> in = startPassThrough(driver, "quiet");
            in.send("k", "a");
            await().atMost(WAIT).until(() -> in.committed(0) == 1L);
            int afterFirst = in.commitRequests();

            // fifty intervals with nothing read
            await().during(Duration.ofMillis(500))
                    .atMost(Duration.ofSeconds(5))
                    .until(() -> in.commitRequests() == afterFirst);

            in.send("k", "b");
            await().atMost(WAIT).until(() -> in.committed(0) == 2L);
            assertThat(in.commitRequests()).isEqualTo(afterFirst + 1);
        }
    }

    /**
     * What is durable is committed while the rest of a poll is still pushed through: the commit is sent
     * between records, and its outcome taken there too (the test source, like a Kafka consumer holding
     * fetched records, confirms an asynchronous commit only at its next poll or when asked to complete
     * commits). The batches seal every 250 records (and the linger is an hour), so by the poll's middle at
     * least 1250 records are sealed whatever else seals them, and the test sink acknowledges at once.
     */
    @Test
    void commitsWhatIsDurableBeforeTheRestOfAPollIsPushedThrough() {
        try (PipelineTestDriver driver = driver(Duration.ofMillis(1))) {
            int records = 3000;
            TestSource<String> in = driver.<String>source("in", 1).pollsAtMost(records);
            TestSink<String> out = driver.sink(
                    "out", SinkPoolConfig.defaults().withBatch(new BatchConfig(250, null, Duration.ofHours(1))));
            for (int i = 0; i < records; i++) {
                in.send("k", "v" + i);
            }
            String middle = "v" + records / 2;
            String last = "v" + (records - 1);
            // a few hundred records after the middle: the commit check has sent the durable offsets by then
            String later = "v" + (records / 2 + 600);
            AtomicBoolean firstThousandDurable = new AtomicBoolean();
            AtomicLong committedAtTheLast = new AtomicLong(-2);
            driver.start(Pipeline.named("mid-poll")
                    .from(in)
                    .map("watch", (String v) -> {
                        if (v.equals(middle)) {
                            // inside the one poll: the first thousand are written and acknowledged (a worker
                            // settles them meanwhile; the pipeline thread settles them itself at its next check)
                            firstThousandDurable.set(DriverSteps.awaitQuietly(
                                    () -> out.values().size() >= 1000
                                            && (out.sendsWithoutBlocking()
                                                    || DriverMeters.gauge(driver, EtlMetrics.SINK_INFLIGHT_BATCHES)
                                                            == 0),
                                    WAIT));
                        }
                        if (v.equals(later)) {
                            // the rest of the poll may take less than the 1 ms floor, after which the outcome of
                            // the commit in flight is asked for: let the floor pass, as it does in real polls
                            long floorPassed =
                                    System.nanoTime() + Duration.ofMillis(5).toNanos();
                            DriverSteps.awaitQuietly(() -> System.nanoTime() - floorPassed >= 0, WAIT);
                        }
                        if (v.equals(last)) {
                            committedAtTheLast.set(in.committed(0));
                        }
                        return v;
                    })
                    .to(out));

            await().atMost(WAIT).until(() -> out.values().size() == records);
            assertThat(firstThousandDurable).isTrue();
            assertThat(committedAtTheLast.get())
                    .as("offset committed when the poll's last record was processed")
                    .isGreaterThanOrEqualTo(1000L);
            driver.awaitCommitted(WAIT);
            assertThat(in.committed(0)).isEqualTo(records);
        }
    }

    @Test
    void sendsAFailedCommitAgainAndReportsOnlyWhatWasStored() {
        try (PipelineTestDriver driver = driver(Duration.ofMillis(10))) {
            TestSource<String> in = driver.<String>source("in", 1).failCommits(3);
            TestSink<String> out = driver.sink("out");
            RunningPipeline running =
                    driver.start(Pipeline.named("retry-commit").from(in).to(out));
            in.send("k", "a");
            in.send("k", "b");

            await().atMost(WAIT).until(() -> out.values().size() == 2);
            // the first commits fail: nothing may be reported as committed until one is stored
            assertThat(running.committedOffsets().getOrDefault(new SourcePartition("in", 0), -1L))
                    .isLessThanOrEqualTo(in.committed(0));
            driver.awaitCommitted(WAIT);

            assertThat(in.commitRequests()).isGreaterThanOrEqualTo(4);
            assertThat(running.committedOffsets()).containsEntry(new SourcePartition("in", 0), 2L);
        }
    }

    @Test
    void showsTheReplayWindowUntilTheCommitIsStored() {
        try (PipelineTestDriver driver = driver(Duration.ofMillis(10))) {
            TestSource<String> in = driver.<String>source("in", 1).failCommits(Integer.MAX_VALUE);
            TestSink<String> out = driver.sink("out");
            driver.start(Pipeline.named("window").from(in).to(out));
            for (int i = 0; i < 25; i++) {
                in.send("k", "v" + i);
            }
            await().atMost(WAIT).until(() -> out.values().size() == 25);

            await().atMost(WAIT)
                    .untilAsserted(() -> assertThat(replayWindow(driver)).isEqualTo(25.0));
            in.failCommits(0);
            driver.awaitCommitted(WAIT);
            await().atMost(WAIT)
                    .untilAsserted(() -> assertThat(replayWindow(driver)).isZero());
        }
    }

    private static double replayWindow(PipelineTestDriver driver) {
        return DriverMeters.gauge(driver, EtlMetrics.CHECKPOINT_REPLAY_WINDOW);
    }

    @Test
    void doesNotReportACleanDrainWhenTheFinalCommitFails() {
        try (PipelineTestDriver driver = driver(Duration.ofMillis(10))) {
            TestSource<String> in = driver.<String>source("in", 1).failCommits(Integer.MAX_VALUE);
            TestSink<String> out = driver.sink("out");
            RunningPipeline running =
                    driver.start(Pipeline.named("final-commit").from(in).to(out));
            in.send("k", "a");
            await().atMost(WAIT).until(() -> out.values().size() == 1);

            PipelineResult result = running.stopAndWait(WAIT);

            assertThat(result.status()).isEqualTo(PipelineResult.Status.FAILED);
            assertThat(result.exitCode()).isNotZero();
            assertThat(result.failure())
                    .isInstanceOf(FatalException.class)
                    .hasMessageContaining("final commit")
                    .hasMessageContaining("in-0");
            assertThat(running.committedOffsets()).doesNotContainKey(new SourcePartition("in", 0));
        }
    }

    @Test
    void failsThePipelineWithItsCauseWhenAShardWorkerDies() {
        try (PipelineTestDriver driver = driver(Duration.ofMillis(10))) {
            TestSource<String> in = driver.source("in", 1);
            TestSink<String> out = driver.<String>sink("out").crashWorkerWith(new LinkageError("writer broke"));
            RunningPipeline running =
                    driver.start(Pipeline.named("worker-death").from(in).to(out));
            for (int i = 0; i < 2_000; i++) {
                in.send("k", "v" + i);
            }

            PipelineResult result = running.result()
                    .orTimeout(WAIT.toSeconds(), TimeUnit.SECONDS)
                    .join();

            assertThat(result.status()).isEqualTo(PipelineResult.Status.FAILED);
            assertThat(result.failure()).hasMessageContaining("out").hasRootCauseMessage("writer broke");
            assertThat(in.committed(0)).isLessThanOrEqualTo(0L);
        }
    }

    @Test
    void failsThePipelineWhenAPartitionWithAFatallyFailedBatchIsRevoked() {
        try (PipelineTestDriver driver = PipelineTestDriver.create(PipelineConfig.defaults()
                .withCheckpoint(CheckpointConfig.custom()
                        .interval(Duration.ofMillis(10))
                        .drainTimeout(Duration.ofSeconds(10))
                        .stalledFailAfter(Duration.ofMinutes(5))
                        .build()))) {
            TestSource<String> in = driver.source("orders", 1);
            TestSink<String> out = driver.sink("out");
            RunningPipeline running =
                    driver.start(Pipeline.named("fatal-revoked").from(in).to(out));
            DriverSteps.commitOneRecordThenFailTheNextBatchFatally(driver, in, out, WAIT);
            await().atMost(WAIT).until(() -> out.writeAttempts() >= 2);

            Map<SourcePartition, Long> committedOnRevoke = in.revoke(0, Duration.ofSeconds(30))
                    .orTimeout(WAIT.toSeconds(), TimeUnit.SECONDS)
                    .join();
            PipelineResult result = running.result()
                    .orTimeout(WAIT.toSeconds(), TimeUnit.SECONDS)
                    .join();

            assertThat(committedOnRevoke).containsEntry(new SourcePartition("orders", 0), 1L);
            assertThat(result.status()).isEqualTo(PipelineResult.Status.FAILED);
            assertThat(result.failure())
                    .isInstanceOf(FatalException.class)
                    .hasMessageContaining("orders-0")
                    .hasMessageContaining("offset 1")
                    .hasMessageContaining("revoked");
        }
    }
}
