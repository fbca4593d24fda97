package io.etl.core;

import io.etl.core.source.SourcePartition;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * A started pipeline. {@link #stop()} asks it to drain and stop; {@link #result()} completes when it has
 * stopped, whether on request or by an error.
 */
public interface RunningPipeline extends AutoCloseable {

    /** Completes once the pipeline has stopped. */
    CompletableFuture<PipelineResult> result();

    /** Asks for a graceful stop: stop reading, drain the sinks within the drain timeout, commit. */
    void stop();

    /** Offsets committed so far (the next offset to read), per source partition. */
    Map<SourcePartition, Long> committedOffsets();

    /** Where the pipeline's meters live. */
    MeterRegistry meterRegistry();

    /** Stops and waits for the result, at most {@code timeout}. */
    PipelineResult stopAndWait(Duration timeout);

    /** {@link #stop()} and wait for the result. */
    @Override
    void close();
}
