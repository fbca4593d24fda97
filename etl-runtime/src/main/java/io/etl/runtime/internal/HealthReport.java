package io.etl.runtime.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.etl.core.PipelineState;
import io.etl.core.RunningPipeline;
import io.etl.core.metrics.EtlMetrics;
import io.etl.core.source.SourcePartition;
import io.micrometer.core.instrument.Gauge;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The answers of {@code /health/live} and {@code /health/ready}, derived from the pipeline's
 * {@link PipelineState} and a few read-only accessors.
 */
public final class HealthReport {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Supplier<RunningPipeline> running;
    private final Duration livenessTimeout;

    /** {@code running} returns null until the pipeline is started. */
    public HealthReport(Supplier<RunningPipeline> running, Duration livenessTimeout) {
        this.running = running;
        this.livenessTimeout = livenessTimeout;
    }

    /** An HTTP status and its JSON body. */
    public record Answer(int status, String body) {}

    /**
     * Ready: partitions assigned and records can flow ({@code RUNNING} or {@code BACKPRESSURED}), the source
     * does not wait for something outside (a schema registry; {@code waiting_for} says what it waits for), and no
     * asynchronous stage stopped completing calls ({@code stages} says which is {@code stalled}).
     */
    public Answer ready() {
        RunningPipeline p = running.get();
        PipelineState state = p == null ? PipelineState.STARTING : p.state();
        boolean ready = (state == PipelineState.RUNNING || state == PipelineState.BACKPRESSURED)
                && p.waitingFor().isEmpty()
                && stallGauges(p).noneMatch(g -> g.value() >= 1);
        return answer(p, state, ready);
    }

    /** The {@code etl_stage_stalled} gauge of every asynchronous stage, by stage name. */
    private static Stream<Gauge> stallGauges(RunningPipeline p) {
        return p.meterRegistry().find(EtlMetrics.STAGE_STALLED).gauges().stream()
                .sorted(Comparator.comparing(g -> g.getId().getTag(EtlMetrics.TAG_STAGE)));
    }

    /**
     * Live: not failed, and the pipeline thread went round its loop within the liveness timeout (while
     * draining the stop budget bounds the process instead).
     */
    public Answer live() {
        RunningPipeline p = running.get();
        PipelineState state = p == null ? PipelineState.STARTING : p.state();
        boolean live;
        if (p == null) {
            live = true;
        } else if (state == PipelineState.FAILED) {
            live = false;
        } else if (state == PipelineState.DRAINING || state == PipelineState.STOPPED) {
            live = true;
        } else {
            live = Duration.between(p.lastActivity(), Instant.now()).compareTo(livenessTimeout) < 0;
        }
        return answer(p, state, live);
    }

    private Answer answer(RunningPipeline p, PipelineState state, boolean up) {
        ObjectNode body = JSON.createObjectNode();
        body.put("status", up ? "UP" : "DOWN");
        body.put("state", state.name());
        if (p != null) {
            body.put("pipeline", p.name());
            List<SourcePartition> assigned = p.assignedPartitions().stream()
                    .sorted(Comparator.comparing(SourcePartition::topic).thenComparingInt(SourcePartition::partition))
                    .toList();
            var partitions = body.putArray("assigned_partitions");
            assigned.forEach(sp -> partitions.add(sp.topic() + "-" + sp.partition()));
            body.put("paused", state == PipelineState.BACKPRESSURED);
            var waiting = p.waitingFor();
            if (waiting.isPresent()) {
                body.put("waiting_for", waiting.get());
            } else {
                body.putNull("waiting_for");
            }
            ObjectNode stages = body.putObject("stages");
            // with several loops a stage has a gauge per loop: stalled when one of them is
            stallGauges(p).forEach(g -> {
                String stage = g.getId().getTag(EtlMetrics.TAG_STAGE);
                if (!stages.has(stage) || g.value() >= 1) {
                    stages.put(stage, g.value() >= 1 ? "stalled" : "ok");
                }
            });
            ObjectNode breakers = body.putObject("breakers");
            p.meterRegistry().find(EtlMetrics.SINK_SHARD_HEALTHY).gauges().stream()
                    .sorted(Comparator.comparing(HealthReport::shardKey))
                    .forEach(g -> breakers.put(shardKey(g), g.value() >= 1 ? "closed" : "open"));
            var lastCommit = p.lastCommitTime();
            if (lastCommit.isPresent()) {
                body.put(
                        "last_commit_age_ms",
                        Math.max(
                                0,
                                Duration.between(lastCommit.get(), Instant.now())
                                        .toMillis()));
            } else {
                body.putNull("last_commit_age_ms");
            }
            body.put(
                    "last_activity_age_ms",
                    Math.max(
                            0, Duration.between(p.lastActivity(), Instant.now()).toMillis()));
        } else {
            body.putArray("assigned_partitions");
            body.put("paused", false);
            body.putNull("waiting_for");
            body.putObject("stages");
            body.putObject("breakers");
            body.putNull("last_commit_age_ms");
        }
        return new Answer(up ? 200 : 503, body.toString());
    }

    /** {@code sink/shard}, or {@code sink/thread/shard} when the pipeline runs several loops. */
    private static String shardKey(Gauge g) {
        String thread = g.getId().getTag(EtlMetrics.TAG_THREAD);
        return g.getId().getTag(EtlMetrics.TAG_SINK) + "/" + (thread == null ? "" : thread + "/")
                + g.getId().getTag(EtlMetrics.TAG_SHARD);
    }
}
