package io.etl.core.internal.runtime;

import io.etl.core.error.EtlException;
import io.etl.core.error.FatalException;
import io.etl.core.error.RetryableException;
import io.etl.core.internal.checkpoint.CheckpointCommit;
import io.etl.core.internal.checkpoint.PartitionTracker;
import io.etl.core.record.RecordMeta;
import io.etl.core.source.SourcePartition;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The steps of exactly-once delivery on the pipeline thread, around the run's {@link TransactionRun}: commit
 * the open transaction at a checkpoint once every output in it is acknowledged; abort it and rewind the
 * source to the last committed positions when a writer doomed it; end it before partitions are revoked; and
 * finish the last one at shutdown.
 */
final class TransactionSteps {

    // part of the runner: logs under its name
    private static final Logger LOG = LoggerFactory.getLogger(PipelineRunner.class);

    private final RunParts parts;
    private final String pipeline;
    private final TransactionRun transactions;
    private final Duration drainTimeout;

    TransactionSteps(RunParts parts, TransactionRun transactions, Duration drainTimeout) {
        this.parts = parts;
        this.pipeline = parts.pipeline();
        this.transactions = transactions;
        this.drainTimeout = drainTimeout;
    }

    /** Before {@code meta}'s record enters the chain: opens a transaction if none is. */
    void entering(RecordMeta meta) {
        transactions.entering(meta);
    }

    boolean isOpen() {
        return transactions.isOpen();
    }

    /** Partitions that left this instance: their positions belong to the next owner. */
    void released(Collection<SourcePartition> partitions) {
        transactions.released(partitions);
    }

    /** Aborts and rewinds when a writer's error doomed the open transaction. */
    void abortIfDoomed() {
        if (transactions.failure() != null) {
            abortAndRewind(transactions.failure());
        }
    }

    /**
     * Commits the open transaction once every output of every record that entered it is acknowledged, with
     * the positions after those records; a transaction that cannot get there by {@code deadline}, or that a
     * writer's error doomed, is aborted and the source reads again from the last commit.
     */
    void commit(long deadline) {
        if (!transactions.isOpen()) {
            return;
        }
        long started = System.nanoTime();
        if (!awaitAllAcknowledged(deadline)) {
            abortAndRewind(
                    transactions.failure() != null
                            ? transactions.failure()
                            : new RetryableException(
                                    "outputs still unacknowledged after " + drainTimeout + " at the checkpoint"));
            return;
        }
        CheckpointCommit next = parts.checkpointer().nextCommit();
        Map<SourcePartition, Long> positions = next.offsets();
        try {
            transactions.commit(positions, started);
        } catch (RetryableException e) {
            transactions.abortedByCommit();
            LOG.warn(
                    "pipeline '{}': transaction aborted at commit ({}); reading again from the last commit",
                    pipeline,
                    e.getMessage());
            rewind();
            return;
        }
        parts.commits().publish(parts.checkpointer().confirmed(next, positions));
        parts.commits().refreshGauges();
    }

    /** Before a revoke: the open transaction (over every partition) commits, or aborts if it was doomed. */
    void endBeforeRevoke(Duration waitUpTo) {
        if (transactions.failure() != null) {
            abortAndRewind(transactions.failure());
        } else {
            commit(System.nanoTime() + waitUpTo.toNanos());
        }
    }

    /** The last transaction, at shutdown: committed when the drain completed, aborted otherwise. */
    void finish(long deadline) {
        try {
            EtlException doomed = transactions.failure();
            if (doomed != null || !parts.sinks().allFinished()) {
                LOG.error(
                        "pipeline '{}': aborting the last transaction ({}); its records replay after a restart",
                        pipeline,
                        doomed != null ? doomed.getMessage() : "the drain did not complete");
                if (doomed instanceof FatalException) {
                    // fenced or broken: the brokers abort it (a newer instance already did, or the timeout will)
                    parts.signals().keepFirst(doomed);
                    return;
                }
                transactions.abort();
                return;
            }
            commit(deadline);
        } catch (RuntimeException e) {
            LOG.error("pipeline '{}': the last transaction failed: {}", pipeline, e.getMessage());
            parts.signals().keepFirst(e);
        }
    }

    /** Seals every open batch and waits until every record that entered is done (or a writer's error). */
    private boolean awaitAllAcknowledged(long deadline) {
        parts.sinks().flushAll(deadline);
        while (!parts.checkpointer().allIdle()
                && System.nanoTime() < deadline
                && !parts.signals().failed()
                && transactions.failure() == null) {
            parts.sinks().pumpAndFlushHandedOver(deadline);
            LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(1));
        }
        return parts.checkpointer().allIdle()
                && transactions.failure() == null
                && !parts.signals().failed();
    }

    /**
     * Aborts the open transaction (after every write of it has completed, so none lands in the next one)
     * and rewinds the source to the last committed positions. A fatal {@code cause} fails the pipeline.
     */
    void abortAndRewind(EtlException cause) {
        if (cause instanceof FatalException fatal) {
            throw fatal;
        }
        if (cause != null) {
            LOG.warn(
                    "pipeline '{}': aborting the open transaction after {}; reading again from the last commit",
                    pipeline,
                    cause.getMessage());
        }
        long deadline = System.nanoTime() + drainTimeout.toNanos();
        parts.sinks().flushAll(deadline);
        while (!parts.checkpointer().allIdle()
                && System.nanoTime() < deadline
                && !parts.signals().failed()) {
            parts.sinks().pumpHandedOver();
            LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(1));
        }
        if (!parts.checkpointer().allIdle()) {
            throw new FatalException("pipeline '" + pipeline + "': writes of an aborted transaction still unfinished"
                    + " after " + drainTimeout + "; stopping rather than letting them reach the next transaction");
        }
        transactions.abort();
        rewind();
    }

    /** Forgets every record since the last commit and makes the source read them again. */
    private void rewind() {
        Map<SourcePartition, Long> points =
                transactions.rewindPoints(parts.buffer().unprocessed());
        parts.buffer().clear();
        List<SourcePartition> tracked = new ArrayList<>(parts.checkpointer().trackers().stream()
                .map(PartitionTracker::partition)
                .toList());
        parts.trackers().released(tracked);
        parts.trackers().assigned(tracked);
        points.keySet().retainAll(parts.assigned());
        parts.source().seek(points);
        LOG.info("pipeline '{}': rewound to {}", pipeline, points);
    }
}
