package io.etl.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etl.core.PipelineResult;
import io.etl.core.PipelineState;
import io.etl.core.PipelineStateListener;
import io.etl.core.RunningPipeline;
import io.etl.core.metrics.EtlMetrics;
import io.etl.core.source.SourcePartition;
import io.etl.runtime.internal.HealthReport;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class HealthReportTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration LIVENESS = Duration.ofSeconds(60);

    /** A pipeline frozen in one state, as the health checks read it. */
    private record Frozen(
            PipelineState state, Instant lastActivity, Optional<Instant> lastCommitTime, MeterRegistry meterRegistry)
            implements RunningPipeline {
        Frozen(PipelineState state) {
            this(state, Instant.now(), Optional.of(Instant.now().minusMillis(1500)), new SimpleMeterRegistry());
        }

        @Override
        public String name() {
            return "frozen";
        }

        @Override
        public CompletableFuture<PipelineResult> result() {
            return new CompletableFuture<>();
        }

        @Override
        public void addStateListener(PipelineStateListener listener) {}

        @Override
        public void stop() {}

        @Override
        public Map<SourcePartition, Long> committedOffsets() {
            return Map.of();
        }

        @Override
        public Set<SourcePartition> assignedPartitions() {
            return Set.of(new SourcePartition("orders", 1), new SourcePartition("orders", 0));
        }

        @Override
        public PipelineResult stopAndWait(Duration timeout) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void close() {}
    }

    private static HealthReport health(RunningPipeline p) {
        return new HealthReport(() -> p, LIVENESS);
    }

    @ParameterizedTest
    @EnumSource(PipelineState.class)
    void readyOnlyWhileRecordsCanFlow(PipelineState state) {
        boolean expected = state == PipelineState.RUNNING || state == PipelineState.BACKPRESSURED;
        assertThat(health(new Frozen(state)).ready().status()).isEqualTo(expected ? 200 : 503);
    }

    @Test
    void notReadyButLiveBeforeThePipelineIsStarted() throws Exception {
        HealthReport health = new HealthReport(() -> null, LIVENESS);
        assertThat(health.ready().status()).isEqualTo(503);
        assertThat(JSON.readTree(health.ready().body()).get("state").asText()).isEqualTo("STARTING");
        assertThat(health.live().status()).isEqualTo(200);
    }

    @Test
    void notLiveOnceFailed() {
        assertThat(health(new Frozen(PipelineState.FAILED)).live().status()).isEqualTo(503);
        assertThat(health(new Frozen(PipelineState.RUNNING)).live().status()).isEqualTo(200);
    }

    @Test
    void notLiveWhenThePipelineThreadStoppedGoingRoundItsLoop() {
        Frozen stuck = new Frozen(
                PipelineState.RUNNING,
                Instant.now().minus(LIVENESS).minusSeconds(1),
                Optional.empty(),
                new SimpleMeterRegistry());
        assertThat(health(stuck).live().status()).isEqualTo(503);
        Frozen draining = new Frozen(
                PipelineState.DRAINING,
                Instant.now().minus(LIVENESS).minusSeconds(1),
                Optional.empty(),
                new SimpleMeterRegistry());
        assertThat(health(draining).live().status())
                .as("the stop budget bounds a drain")
                .isEqualTo(200);
    }

    @Test
    void bodyNamesStatePartitionsBreakersAndCommitAge() throws Exception {
        Frozen p = new Frozen(PipelineState.BACKPRESSURED);
        Gauge.builder(EtlMetrics.SINK_SHARD_HEALTHY, () -> 1)
                .tags(EtlMetrics.TAG_SINK, "eu", EtlMetrics.TAG_SHARD, "0")
                .register(p.meterRegistry());
        Gauge.builder(EtlMetrics.SINK_SHARD_HEALTHY, () -> 0)
                .tags(EtlMetrics.TAG_SINK, "eu", EtlMetrics.TAG_SHARD, "1")
                .register(p.meterRegistry());

        JsonNode body = JSON.readTree(health(p).ready().body());

        assertThat(body.get("status").asText()).isEqualTo("UP");
        assertThat(body.get("state").asText()).isEqualTo("BACKPRESSURED");
        assertThat(body.get("pipeline").asText()).isEqualTo("frozen");
        assertThat(body.get("paused").asBoolean()).isTrue();
        assertThat(body.get("assigned_partitions").toString()).isEqualTo("[\"orders-0\",\"orders-1\"]");
        assertThat(body.get("breakers").get("eu/0").asText()).isEqualTo("closed");
        assertThat(body.get("breakers").get("eu/1").asText()).isEqualTo("open");
        assertThat(body.get("last_commit_age_ms").asLong()).isBetween(1500L, 60_000L);
        assertThat(body.get("last_activity_age_ms").asLong()).isGreaterThanOrEqualTo(0L);
    }

    @Test
    void aStalledAsynchronousStageMakesThePipelineNotReadyAndIsNamed() throws Exception {
        Frozen p = new Frozen(PipelineState.RUNNING);
        AtomicInteger stalled = new AtomicInteger();
        Gauge.builder(EtlMetrics.STAGE_STALLED, stalled, AtomicInteger::get)
                .tags(EtlMetrics.TAG_STAGE, "enrich")
                .register(p.meterRegistry());
        assertThat(health(p).ready().status()).isEqualTo(200);

        stalled.set(1);
        HealthReport.Answer ready = health(p).ready();

        assertThat(ready.status()).isEqualTo(503);
        assertThat(JSON.readTree(ready.body()).get("stages").get("enrich").asText())
                .isEqualTo("stalled");
        assertThat(health(p).live().status())
                .as("a stalled stage is not a dead process")
                .isEqualTo(200);
    }

    @Test
    void noCommitYetIsNull() throws Exception {
        Frozen p = new Frozen(PipelineState.RUNNING, Instant.now(), Optional.empty(), new SimpleMeterRegistry());
        assertThat(JSON.readTree(health(p).ready().body())
                        .get("last_commit_age_ms")
                        .isNull())
                .isTrue();
    }
}
