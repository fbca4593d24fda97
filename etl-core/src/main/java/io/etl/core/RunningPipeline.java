package io.etl.core;

import io.etl.core.source.SourcePartition;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * A started pipeline. {@link #stop()} asks it to drain and stop; {@link #result()} completes when it has
 * stopped, whether on request or by an error. {@link #state()} and a {@link PipelineStateListener} tell
 * where it is in between; health checks derive from them.
 */
public interface RunningPipeline extends AutoCloseable {

    /** The pipeline's name (the YAML's {@code pipeline.name} when set, else the name given in code). */
    String name();

    /** Completes once the pipeline has stopped. */
    CompletableFuture<PipelineResult> result();

    /** Where the pipeline is now. */
    PipelineState state();

    /**
     * Registers a listener told of every later state change. A listener added after the pipeline ended is
     * never called; read {@link #state()} after adding it to learn the current state.
     */
    void addStateListener(PipelineStateListener listener);

    /** Asks for a graceful stop: stop reading, drain the sinks within the drain timeout, commit. */
    void stop();

    /** Offsets committed so far (the next offset to read), per source partition. */
    Map<SourcePartition, Long> committedOffsets();

    /** The source partitions assigned to this pipeline now. */
    Set<SourcePartition> assignedPartitions();

    /** When offsets were last committed; empty before the first commit. Grows old while no input arrives. */
    Optional<Instant> lastCommitTime();

    /**
     * When the pipeline's thread last went round its loop (a poll, a batch of records, or a wait for room in
     * the sinks). It keeps moving while the pipeline is idle or backpressured; an old value means the thread
     * is stuck.
     */
    Instant lastActivity();

    /**
     * Why the source cannot hand over records for now although nothing holds it back (a record waiting for a
     * schema registry to answer, for instance), or empty; the pipeline resumes by itself. Health checks report
     * it and do not count a waiting pipeline as ready.
     */
    default Optional<String> waitingFor() {
        return Optional.empty();
    }

    /** Where the pipeline's meters live. */
    MeterRegistry meterRegistry();

    /** Stops and waits for the result, at most {@code timeout}. */
    PipelineResult stopAndWait(Duration timeout);

    /** {@link #stop()} and wait for the result. */
    @Override
    void close();
}
