package io.etl.core.internal.runtime;

import io.etl.core.config.Durations;
import io.etl.core.internal.chain.AsyncStages;
import io.etl.core.source.Source;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a pipeline stops, in order: drain the sinks within {@code checkpoint.drain_timeout}, give up the
 * batches still unacknowledged, make the final commit (or finish the last transaction), then close the source
 * and the writers in what is left of {@code pipeline.shutdown_timeout}. A failure on the way becomes the run's
 * failure unless one came first.
 *
 * @param pipeline        the pipeline's name, for the log
 * @param sinks           drained, given up and closed
 * @param stages          the asynchronous stages: their calls in flight finish first, within the drain
 * @param commits         makes the final commit
 * @param source          closed last
 * @param failure         the run's failure
 * @param drainTimeout    {@code checkpoint.drain_timeout}
 * @param shutdownTimeout {@code pipeline.shutdown_timeout}, the whole stop's budget
 */
record ShutdownSequence(
        String pipeline,
        PipelineSinks sinks,
        AsyncStages stages,
        CommitScheduler commits,
        Source<?> source,
        RunFailure failure,
        Duration drainTimeout,
        Duration shutdownTimeout) {

    private static final Logger LOG = LoggerFactory.getLogger(ShutdownSequence.class);

    /**
     * Runs the sequence.
     *
     * @param begun        when the stop began ({@link System#nanoTime()}): both budgets count from there
     * @param opened       whether the source and every sink were opened (else there is nothing to commit)
     * @param sourceOpened whether the source was opened (else there is nothing to close)
     * @param transactions the exactly-once steps, or null at least once
     */
    void run(long begun, boolean opened, boolean sourceOpened, TransactionSteps transactions) {
        long deadline = begun + drainTimeout.toNanos();
        // the whole stop fits in pipeline.shutdown_timeout: the drain first, then what is left for the rest
        long stopDeadline = begun + shutdownTimeout.toNanos();
        try {
            // the calls in flight finish and their results reach the sinks; a failed run does not wait for them
            if (!stages.finish(failure.failed() ? System.nanoTime() : deadline, () -> sinks.flushAll(deadline))) {
                LOG.warn(
                        "pipeline '{}': asynchronous stages still held records after the drain timeout of {};"
                                + " they were not committed and replay after a restart",
                        pipeline,
                        Durations.format(drainTimeout));
            }
            if (!sinks.drain(deadline)) {
                LOG.error(
                        "pipeline '{}': drain timeout of {} reached with batches still unacknowledged",
                        pipeline,
                        Durations.format(drainTimeout));
            }
            sinks.abortAll(stopDeadline, Duration.ofSeconds(5));
            if (opened && transactions != null) {
                transactions.finish(deadline, sinks.allFinished());
            } else if (opened) {
                finalCommit();
            }
        } catch (Throwable t) {
            failure.keepFirst(t);
        } finally {
            try {
                if (sourceOpened) {
                    source.close(remaining(stopDeadline, Duration.ofSeconds(10)));
                }
            } catch (RuntimeException e) {
                LOG.warn("pipeline '{}': closing source '{}' failed: {}", pipeline, source.name(), e.getMessage());
            }
            sinks.closeWriters(stopDeadline, Duration.ofSeconds(5));
            stages.close();
        }
    }

    private void finalCommit() {
        Throwable commitFailure;
        try {
            commitFailure = commits.commitSync();
        } catch (RuntimeException e) {
            commitFailure = e;
        }
        if (commitFailure != null) {
            LOG.error("pipeline '{}': final commit failed: {}", pipeline, commitFailure.getMessage());
            failure.keepFirst(commitFailure);
        }
    }

    /** {@code cap}, or less when the stop budget ends sooner (never below zero). */
    static Duration remaining(long stopDeadline, Duration cap) {
        long left = Math.max(0, stopDeadline - System.nanoTime());
        return left < cap.toNanos() ? Duration.ofNanos(left) : cap;
    }
}
