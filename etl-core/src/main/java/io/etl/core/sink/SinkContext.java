package io.etl.core.sink;

import io.etl.core.checkpoint.RunContext;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

/**
 * What a sink gets when the pipeline opens it.
 *
 * @param pipeline      the pipeline's name
 * @param sink          the sink's name
 * @param meterRegistry where the sink registers its own meters
 * @param tags          tags every meter of this sink carries: {@code pipeline}, {@code sink} and the
 *                      configured {@code metrics.common_tags}
 * @param runId         unique per run of a pipeline; sinks of one run may share client resources (a connector
 *                      keys what it shares by it, so separate runs in one JVM never share)
 * @param run           what the source and sinks of this run share, and its delivery guarantee
 */
public record SinkContext(
        String pipeline, String sink, MeterRegistry meterRegistry, Tags tags, String runId, RunContext run) {

    /** An at-least-once context of its own. */
    public SinkContext(String pipeline, String sink, MeterRegistry meterRegistry, Tags tags, String runId) {
        this(pipeline, sink, meterRegistry, tags, runId, RunContext.atLeastOnce(runId));
    }
}
