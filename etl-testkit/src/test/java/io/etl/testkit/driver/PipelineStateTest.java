package io.etl.testkit.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etl.core.Pipeline;
import io.etl.core.PipelineResult;
import io.etl.core.PipelineState;
import io.etl.core.RunningPipeline;
import io.etl.core.config.BatchConfig;
import io.etl.core.config.SinkPoolConfig;
import io.etl.core.source.SourcePartition;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class PipelineStateTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Test
    void runsOnceAssignedThenDrainsAndStopsTellingTheListenerEveryStep() {
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<String> in = driver.source("in", 2);
            TestSink<String> out = driver.sink("out");
            RunningPipeline running =
                    driver.start(Pipeline.named("states").from(in).to(out));
            List<String> changes = new CopyOnWriteArrayList<>();
            running.addStateListener((from, to) -> changes.add(from + "->" + to));

            await().atMost(WAIT).until(() -> running.state() == PipelineState.RUNNING);
            assertThat(running.assignedPartitions())
                    .containsExactlyInAnyOrder(new SourcePartition("in", 0), new SourcePartition("in", 1));
            in.send("k", "v");
            driver.awaitCommitted(WAIT);
            assertThat(running.lastCommitTime()).isPresent();
            assertThat(running.lastActivity()).isAfter(Instant.now().minusSeconds(5));

            PipelineResult result = running.stopAndWait(WAIT);
            assertThat(result.succeeded()).isTrue();
            assertThat(running.state()).isEqualTo(PipelineState.STOPPED);
            assertThat(changes).endsWith("RUNNING->DRAINING", "DRAINING->STOPPED");
        }
    }

    @Test
    void isStartingBeforeAnyPartitionIsAssignedAndHasNoCommitYet() {
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<String> in = driver.source("in", 0);
            RunningPipeline running =
                    driver.start(Pipeline.named("idle").from(in).to(driver.sink("out")));
            await().during(Duration.ofMillis(200)).atMost(WAIT).until(() -> running.state() == PipelineState.STARTING);
            assertThat(running.assignedPartitions()).isEmpty();
            assertThat(running.lastCommitTime()).isEmpty();
        }
    }

    @Test
    void reportsBackpressureWhileTheSinksAreFullAndRunningOnceTheyDrain() {
        SinkPoolConfig pool = PipelineTestDriver.DEFAULT_POOL
                .withInflight(1)
                .withQueue(1)
                .withBatch(new BatchConfig(10, null, Duration.ofMillis(1)));
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<String> in = driver.source("in", 1);
            TestSink<String> out = driver.<String>sink("out", pool).holdAcks();
            RunningPipeline running =
                    driver.start(Pipeline.named("full").from(in).to(out));
            List<PipelineState> seen = new CopyOnWriteArrayList<>();
            running.addStateListener((from, to) -> seen.add(to));
            for (int i = 0; i < 1_000; i++) {
                in.send("k" + i, "v" + i);
            }
            await().atMost(WAIT).until(() -> running.state() == PipelineState.BACKPRESSURED);
            assertThat(in.isPaused()).isTrue();

            out.releaseAcks();
            driver.awaitCommitted(WAIT);
            await().atMost(WAIT).until(() -> running.state() == PipelineState.RUNNING);
            assertThat(seen).contains(PipelineState.BACKPRESSURED, PipelineState.RUNNING);
        }
    }

    @Test
    void endsFailedWhenAStageFailsAndNeverLeavesIt() {
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<String> in = driver.source("in", 1);
            RunningPipeline running = driver.start(Pipeline.named("boom")
                    .from(in)
                    .map("explode", v -> {
                        throw new IllegalStateException("cannot map " + v);
                    })
                    .to(driver.sink("out")));
            List<PipelineState> seen = new CopyOnWriteArrayList<>();
            running.addStateListener((from, to) -> seen.add(to));
            in.send("k", "v");

            PipelineResult result = running.result()
                    .orTimeout(WAIT.toSeconds(), TimeUnit.SECONDS)
                    .join();
            assertThat(result.status()).isEqualTo(PipelineResult.Status.FAILED);
            assertThat(running.state()).isEqualTo(PipelineState.FAILED);
            assertThat(seen).endsWith(PipelineState.DRAINING, PipelineState.FAILED);
            running.stop();
            assertThat(running.state()).isEqualTo(PipelineState.FAILED);
        }
    }

    @Test
    void aListenerThatThrowsDoesNotStopThePipeline() {
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<String> in = driver.source("in", 1);
            TestSink<String> out = driver.sink("out");
            RunningPipeline running =
                    driver.start(Pipeline.named("rude").from(in).to(out));
            running.addStateListener((from, to) -> {
                throw new IllegalStateException("listener bug");
            });
            await().atMost(WAIT).until(() -> running.state() == PipelineState.RUNNING);
            in.send("k", "v");
            driver.awaitCommitted(WAIT);
            assertThat(out.values()).containsExactly("v");
            assertThat(running.stopAndWait(WAIT).succeeded()).isTrue();
        }
    }
}
