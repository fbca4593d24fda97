package io.etl.core.internal.runtime;

import io.etl.core.config.Durations;
import io.etl.core.error.FatalException;
import io.etl.core.internal.checkpoint.PartitionTracker;
import io.etl.core.internal.checkpoint.PendingRecord;
import io.etl.core.source.SourcePartition;
import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the pipeline does when the source's partitions change (called inside {@code poll}, on the pipeline
 * thread). Assigned partitions get trackers. Revoked ones lose their buffered records, their output is
 * waited for up to the source's revoke timeout, and their watermarks are returned for the source to commit
 * (in exactly-once mode the open transaction commits instead). Lost ones are forgotten without a commit.
 */
final class RebalanceHandler {

    // part of the runner: logs under its name
    private static final Logger LOG = LoggerFactory.getLogger(PipelineRunner.class);

    private final RunParts parts;
    private final String pipeline;
    /** Exactly-once mode only, once the source is open; null at least once. */
    private TransactionSteps transactions;

    RebalanceHandler(RunParts parts) {
        this.parts = parts;
        this.pipeline = parts.pipeline();
    }

    /** From now on a revoke or a loss ends the open transaction first. */
    void exactlyOnce(TransactionSteps steps) {
        this.transactions = steps;
    }

    void assigned(Collection<SourcePartition> partitions) {
        parts.trackers().assigned(partitions);
        parts.assigned().addAll(partitions);
    }

    /** Drains the output of {@code partitions} for up to {@code waitUpTo}; returns the offsets to commit. */
    Map<SourcePartition, Long> revoked(Collection<SourcePartition> partitions, Duration waitUpTo) {
        Set<SourcePartition> revoked = new HashSet<>(partitions);
        parts.buffer().drop(revoked);
        if (transactions != null) {
            return revokedInTransaction(revoked, waitUpTo);
        }
        long deadline = System.nanoTime() + waitUpTo.toNanos();
        parts.sinks().flushAll(deadline);
        while (!parts.checkpointer().idle(revoked)
                && System.nanoTime() < deadline
                && !parts.signals().failed()
                && parts.checkpointer().firstFailure(revoked) == null) {
            parts.sinks().pumpAndFlushHandedOver(deadline);
            LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(2));
        }
        failIfFatal(revoked, "revoked");
        if (!parts.checkpointer().idle(revoked)) {
            LOG.warn(
                    "pipeline '{}': revoked partitions {} still had in-flight output after {}; committing what is durable",
                    pipeline,
                    revoked,
                    Durations.format(waitUpTo));
        }
        Map<SourcePartition, Long> offsets = parts.checkpointer().watermarks(revoked);
        parts.trackers().released(revoked);
        // the source commits these before letting the partitions go; they are no longer ours to report
        parts.commits().revoked(offsets, revoked);
        parts.assigned().removeAll(revoked);
        LOG.info("pipeline '{}': revoked {}, committing {}", pipeline, revoked, offsets);
        return offsets;
    }

    /** A revoke in exactly-once mode: the open transaction (over every partition) commits before they go. */
    private Map<SourcePartition, Long> revokedInTransaction(Set<SourcePartition> revoked, Duration waitUpTo) {
        transactions.endBeforeRevoke(waitUpTo);
        parts.trackers().released(revoked);
        transactions.released(revoked);
        parts.commits().forget(revoked);
        parts.assigned().removeAll(revoked);
        LOG.info("pipeline '{}': revoked {} after the open transaction ended", pipeline, revoked);
        // the offsets went with the transaction: the source has nothing left to commit
        return Map.of();
    }

    void lost(Collection<SourcePartition> partitions) {
        Set<SourcePartition> lost = new HashSet<>(partitions);
        parts.buffer().drop(lost);
        failIfFatal(lost, "lost");
        if (transactions != null && transactions.isOpen()) {
            // the open transaction holds output of partitions this instance no longer owns: it must not commit
            transactions.released(lost);
            parts.trackers().released(lost);
            transactions.abortAndRewind(null);
        }
        parts.trackers().released(lost);
        parts.commits().forget(lost);
        parts.assigned().removeAll(lost);
        LOG.warn("pipeline '{}': lost {} without committing; their records replay elsewhere", pipeline, lost);
    }

    /**
     * A record of {@code partitions} whose output failed fatally fails the pipeline now: its tracker is about
     * to be forgotten, and the partition's next owner would only meet the same failure.
     */
    private void failIfFatal(Set<SourcePartition> partitions, String how) {
        Map.Entry<PartitionTracker, PendingRecord> failed = parts.checkpointer().firstFailure(partitions);
        if (failed != null) {
            Throwable cause = failed.getValue().failure();
            parts.signals()
                    .fail(new FatalException(
                            "partition " + failed.getKey().partition() + " was " + how
                                    + " while offset " + failed.getValue().offset()
                                    + " waited behind a batch that failed: "
                                    + cause.getMessage(),
                            cause));
        }
    }
}
