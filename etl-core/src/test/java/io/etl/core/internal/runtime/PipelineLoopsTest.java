package io.etl.core.internal.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.etl.core.Pipeline;
import io.etl.core.PipelineResult;
import io.etl.core.PipelineState;
import io.etl.core.RunningPipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.core.config.PipelineSection;
import io.etl.core.error.ConfigException;
import io.etl.core.metrics.EtlMetrics;
import io.etl.core.record.RecordMeta;
import io.etl.core.source.CommitCallback;
import io.etl.core.source.Source;
import io.etl.core.source.SourceContext;
import io.etl.core.source.SourceOutput;
import io.etl.core.source.SourcePartition;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@code pipeline.threads}: several loops of one definition, seen from outside as one pipeline. */
class PipelineLoopsTest {

    private static final int PER_LOOP = 50;

    @Test
    void theRunsStateWaitsForItsSlowestLoopAndEndsWhenAllEnded() {
        assertThat(PipelineLoops.combined(List.of(PipelineState.RUNNING, PipelineState.STARTING)))
                .isEqualTo(PipelineState.STARTING);
        assertThat(PipelineLoops.combined(List.of(PipelineState.RUNNING, PipelineState.BACKPRESSURED)))
                .isEqualTo(PipelineState.BACKPRESSURED);
        assertThat(PipelineLoops.combined(List.of(PipelineState.RUNNING, PipelineState.RUNNING)))
                .isEqualTo(PipelineState.RUNNING);
        assertThat(PipelineLoops.combined(List.of(PipelineState.RUNNING, PipelineState.FAILED)))
                .isEqualTo(PipelineState.DRAINING);
        assertThat(PipelineLoops.combined(List.of(PipelineState.STARTING, PipelineState.DRAINING)))
                .isEqualTo(PipelineState.DRAINING);
        assertThat(PipelineLoops.combined(List.of(PipelineState.STOPPED, PipelineState.FAILED)))
                .isEqualTo(PipelineState.FAILED);
        assertThat(PipelineLoops.combined(List.of(PipelineState.STOPPED, PipelineState.STOPPED)))
                .isEqualTo(PipelineState.STOPPED);
    }

    @Test
    void aSourceThatRunsOnOneLoopOnlyMakesSeveralThreadsAConfigurationError() {
        Pipeline pipeline = Pipeline.named("one-loop")
                .from(new FixtureSource(List.of(RecordMeta.of("t", 0, 0))))
                .to(sink(List.of()));

        assertThatThrownBy(() -> pipeline.start(threads(2)))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("pipeline.threads: is 2 but source 'list' runs on one loop only");
    }

    @Test
    void everyLoopReadsItsOwnPartitionAndTheRunAddsThemUp() {
        List<String> written = new CopyOnWriteArrayList<>();
        Set<String> threads = ConcurrentHashMap.newKeySet();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        RunningPipeline running = Pipeline.named("loops")
                .from(new LoopSource(0))
                .map("where", v -> {
                    threads.add(Thread.currentThread().getName());
                    return v;
                })
                .to(sink(written))
                .start(threads(3), registry);

        await().atMost(Duration.ofSeconds(20)).until(() -> written.size() == 3 * PER_LOOP);
        assertThat(running.state()).isEqualTo(PipelineState.RUNNING);
        assertThat(running.assignedPartitions()).hasSize(3);
        await().atMost(Duration.ofSeconds(20))
                .until(() -> running.committedOffsets()
                        .equals(Map.of(
                                new SourcePartition("t", 0), (long) PER_LOOP,
                                new SourcePartition("t", 1), (long) PER_LOOP,
                                new SourcePartition("t", 2), (long) PER_LOOP)));
        PipelineResult result = running.stopAndWait(Duration.ofSeconds(20));

        assertThat(result.status()).isEqualTo(PipelineResult.Status.COMPLETED);
        assertThat(result.recordsIn()).isEqualTo(3 * PER_LOOP);
        assertThat(running.state()).isEqualTo(PipelineState.STOPPED);
        assertThat(threads).containsExactlyInAnyOrder("etl-loops-1", "etl-loops-2", "etl-loops-3");
        for (String loop : List.of("1", "2", "3")) {
            assertThat(registry.get(EtlMetrics.SOURCE_RECORDS)
                            .tag(EtlMetrics.TAG_THREAD, loop)
                            .counter()
                            .count())
                    .as("records read by loop %s", loop)
                    .isEqualTo(PER_LOOP);
        }
    }

    @Test
    void aLoopThatFailsStopsTheOthersAndTheRunFailsWithItsCause() {
        RunningPipeline running = Pipeline.named("loops")
                .from(new LoopSource(0))
                .map("breaks-on-partition-1", v -> {
                    if (v.startsWith("p1-")) {
                        throw new IllegalStateException("partition 1 breaks");
                    }
                    return v;
                })
                .to(sink(new CopyOnWriteArrayList<>()))
                .start(threads(2));

        PipelineResult result = running.result().orTimeout(30, TimeUnit.SECONDS).join();

        assertThat(result.status()).isEqualTo(PipelineResult.Status.FAILED);
        assertThat(result.failure()).hasStackTraceContaining("partition 1 breaks");
        assertThat(running.state()).isEqualTo(PipelineState.FAILED);
    }

    private static PipelineConfig threads(int n) {
        return PipelineConfig.custom()
                .pipeline(PipelineSection.custom().threads(n).build())
                .build();
    }

    private static FixtureSink<String, String> sink(List<String> written) {
        return new FixtureSink<>("out", FixtureSink.passThrough(), context -> batch -> {
            written.addAll(batch.messages());
            return CompletableFuture.completedFuture(null);
        });
    }

    /**
     * Partition {@code loop - 1} of topic {@code t}: its first poll takes the partition and emits {@value PER_LOOP}
     * records {@code p<partition>-<offset>}; a copy per loop.
     */
    private static final class LoopSource implements Source<String> {
        private final int partition;
        private SourceContext context;
        private boolean emitted;

        LoopSource(int partition) {
            this.partition = partition;
        }

        @Override
        public Source<String> forLoop(int loop, int loops) {
            return new LoopSource(loop - 1);
        }

        @Override
        public String name() {
            return "loops";
        }

        @Override
        public Duration pollTimeout() {
            return Duration.ofMillis(5);
        }

        @Override
        public void open(SourceContext ctx) {
            context = ctx;
        }

        @Override
        public void poll(Duration timeout, SourceOutput<String> output) {
            if (emitted) {
                return;
            }
            emitted = true;
            context.listener().onAssigned(List.of(new SourcePartition("t", partition)));
            for (int offset = 0; offset < PER_LOOP; offset++) {
                output.emit("p" + partition + "-" + offset, RecordMeta.of("t", partition, offset));
            }
        }

        @Override
        public void commit(Map<SourcePartition, Long> offsets, boolean sync, CommitCallback done) {
            done.completed(offsets, null);
        }

        @Override
        public void pause() {}

        @Override
        public void resume() {}

        @Override
        public void close(Duration timeout) {}
    }
}
