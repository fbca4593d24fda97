package io.etl.core.internal.runtime;

import io.etl.core.config.Durations;
import io.etl.core.error.FatalException;
import io.etl.core.source.SourcePartition;
import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the pipeline does when the source's partitions change (called inside {@code poll}, on the pipeline
 * thread). Assigned partitions get trackers. Revoked ones lose their buffered records, their output is
 * waited for up to the source's revoke timeout, and their watermarks are returned for the source to commit
 * (in exactly-once mode the open transaction commits instead). Lost ones are forgotten without a commit.
 */
final class RebalanceHandler {

    private static final Logger LOG = LoggerFactory.getLogger(RebalanceHandler.class);

    private final String pipeline;
    private final PollBuffer buffer;
    private final OwnedPartitions partitions;
    private final AcknowledgementWait acknowledgements;
    private final CommitScheduler commits;
    private final StallCheck stalls;
    private final RunFailure failure;
    /** Exactly-once mode only, once the source is open; null at least once. */
    private TransactionSteps transactions;

    /**
     * @param pipeline         the pipeline's name, for the log
     * @param buffer           the records of the last poll; those of a partition that leaves are dropped
     * @param partitions       the partitions owned now
     * @param acknowledgements waits for the output of revoked partitions
     * @param commits          the watermarks to commit for revoked partitions
     * @param stalls           finds a leaving partition's record that waits behind a failed batch
     * @param failure          the run's failure
     */
    RebalanceHandler(
            String pipeline,
            PollBuffer buffer,
            OwnedPartitions partitions,
            AcknowledgementWait acknowledgements,
            CommitScheduler commits,
            StallCheck stalls,
            RunFailure failure) {
        this.pipeline = pipeline;
        this.buffer = buffer;
        this.partitions = partitions;
        this.acknowledgements = acknowledgements;
        this.commits = commits;
        this.stalls = stalls;
        this.failure = failure;
    }

    /** From now on a revoke or a loss ends the open transaction first. */
    void exactlyOnce(TransactionSteps steps) {
        this.transactions = steps;
    }

    void assigned(Collection<SourcePartition> assigned) {
        partitions.assigned(assigned);
        LOG.info("pipeline '{}': assigned {}", pipeline, assigned);
    }

    /** Drains the output of {@code revokedNow} for up to {@code waitUpTo}; returns the offsets to commit. */
    Map<SourcePartition, Long> revoked(Collection<SourcePartition> revokedNow, Duration waitUpTo) {
        Set<SourcePartition> revoked = new HashSet<>(revokedNow);
        buffer.drop(revoked);
        if (transactions != null) {
            return revokedInTransaction(revoked, waitUpTo);
        }
        boolean drained = acknowledgements.partitions(revoked, System.nanoTime() + waitUpTo.toNanos());
        failIfFatal(revoked, "revoked");
        if (!drained) {
            LOG.warn(
                    "pipeline '{}': revoked partitions {} still had in-flight output after {}; committing what is durable",
                    pipeline,
                    revoked,
                    Durations.format(waitUpTo));
        }
        // the source commits these before letting the partitions go; they are no longer ours to report
        Map<SourcePartition, Long> offsets = commits.revoking(revoked);
        partitions.released(revoked);
        LOG.info("pipeline '{}': revoked {}, committing {}", pipeline, revoked, offsets);
        return offsets;
    }

    /** A revoke in exactly-once mode: the open transaction (over every partition) commits before they go. */
    private Map<SourcePartition, Long> revokedInTransaction(Set<SourcePartition> revoked, Duration waitUpTo) {
        transactions.endBeforeRevoke(waitUpTo);
        transactions.released(revoked);
        partitions.released(revoked);
        LOG.info("pipeline '{}': revoked {} after the open transaction ended", pipeline, revoked);
        // the offsets went with the transaction: the source has nothing left to commit
        return Map.of();
    }

    void lost(Collection<SourcePartition> lostNow) {
        Set<SourcePartition> lost = new HashSet<>(lostNow);
        buffer.drop(lost);
        acknowledgements.giveUp(lost);
        failIfFatal(lost, "lost");
        if (transactions != null && transactions.isOpen()) {
            // the open transaction holds output of partitions this instance no longer owns: it must not commit
            transactions.released(lost);
            partitions.released(lost);
            transactions.abortAndRewind(null);
        } else {
            partitions.released(lost);
        }
        LOG.warn("pipeline '{}': lost {} without committing; their records replay elsewhere", pipeline, lost);
    }

    /** A record of {@code leaving} whose output failed fatally fails the pipeline now ({@link StallCheck#leaving}). */
    private void failIfFatal(Set<SourcePartition> leaving, String how) {
        FatalException fatal = stalls.leaving(leaving, how);
        if (fatal != null) {
            failure.fail(fatal);
        }
    }
}
