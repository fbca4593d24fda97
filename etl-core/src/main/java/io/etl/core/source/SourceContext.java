package io.etl.core.source;

import io.etl.core.checkpoint.RunContext;
import io.etl.core.metrics.EtlMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.UUID;

/**
 * What a source gets when the pipeline opens it.
 *
 * @param pipeline      the pipeline's name
 * @param listener      to be told about partition assignment changes
 * @param meterRegistry where the source registers its own meters
 * @param tags          tags every meter of this source carries: {@code pipeline}, {@code source} and the
 *                      configured {@code metrics.common_tags}
 * @param runId         unique per run of a pipeline, the same as the sinks' {@code SinkContext.runId()}: a
 *                      connector may share client resources (a connection check) between the source and the
 *                      sinks of one run
 * @param run           what the source and sinks of this run share, and its delivery guarantee
 */
public record SourceContext(
        String pipeline,
        PartitionListener listener,
        MeterRegistry meterRegistry,
        Tags tags,
        String runId,
        RunContext run) {

    /** An at-least-once context of run {@code runId}. */
    public SourceContext(
            String pipeline, PartitionListener listener, MeterRegistry meterRegistry, Tags tags, String runId) {
        this(pipeline, listener, meterRegistry, tags, runId, RunContext.atLeastOnce(runId));
    }

    /** A context of a run of its own (its {@code runId} is shared with nothing). */
    public SourceContext(String pipeline, PartitionListener listener, MeterRegistry meterRegistry, Tags tags) {
        this(pipeline, listener, meterRegistry, tags, UUID.randomUUID().toString());
    }

    /** A context whose tags are {@code pipeline} only. */
    public SourceContext(String pipeline, PartitionListener listener, MeterRegistry meterRegistry) {
        this(pipeline, listener, meterRegistry, Tags.of(EtlMetrics.TAG_PIPELINE, pipeline));
    }
}
