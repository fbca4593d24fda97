package io.etl.core;

import java.time.Duration;
import java.util.Optional;

/**
 * How a pipeline run ended.
 *
 * @param pipeline         the pipeline's name
 * @param status           {@link Status#COMPLETED} when it stopped on request and drained everything
 * @param failure          why it failed, when it did
 * @param recordsIn        records read from the source
 * @param abandonedBatches batches given up at shutdown (they replay after a restart)
 * @param elapsed          time from start to end
 */
public record PipelineResult(
        String pipeline, Status status, Throwable failure, long recordsIn, long abandonedBatches, Duration elapsed) {

    /** Outcome of a run. */
    public enum Status {
        /** Stopped on request with everything drained and committed. */
        COMPLETED,
        /** Stopped on request, but some batches were abandoned at the drain deadline. */
        ABANDONED,
        /** Stopped by an error. */
        FAILED
    }

    /** 0 for {@link Status#COMPLETED}, 1 otherwise: a process exit code. */
    public int exitCode() {
        return status == Status.COMPLETED ? 0 : 1;
    }

    public Optional<Throwable> failureCause() {
        return Optional.ofNullable(failure);
    }

    public boolean succeeded() {
        return status == Status.COMPLETED;
    }
}
