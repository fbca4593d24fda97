package io.etl.core.internal.runtime;

import io.etl.core.error.EtlException;
import io.etl.core.error.FatalException;
import io.etl.core.error.RetryableException;
import io.etl.core.record.RecordMeta;
import io.etl.core.source.SourcePartition;
import java.time.Duration;
import java.util.Collection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The steps of exactly-once delivery on the pipeline thread, around the run's {@link TransactionRun}: commit
 * the open transaction at a checkpoint once every output in it is acknowledged; abort it and rewind the
 * source to the last committed positions when a writer doomed it; end it before partitions are revoked; and
 * finish the last one at shutdown.
 */
final class TransactionSteps {

    private static final Logger LOG = LoggerFactory.getLogger(TransactionSteps.class);

    private final String pipeline;
    private final TransactionRun transactions;
    private final AcknowledgementWait acknowledgements;
    private final CommitScheduler commits;
    private final SourceRewind rewind;
    private final RunFailure failure;
    private final Duration drainTimeout;

    /**
     * @param pipeline         the pipeline's name, for the log
     * @param transactions     the transaction of the run and where to read again after an abort
     * @param acknowledgements waits until every record that entered a transaction is done
     * @param commits          publishes what a transaction committed
     * @param rewind           reads again from the last commit after an abort
     * @param failure          the run's failure
     * @param drainTimeout     {@code checkpoint.drain_timeout}: how long an abort waits for the writes it ends
     */
    TransactionSteps(
            String pipeline,
            TransactionRun transactions,
            AcknowledgementWait acknowledgements,
            CommitScheduler commits,
            SourceRewind rewind,
            RunFailure failure,
            Duration drainTimeout) {
        this.pipeline = pipeline;
        this.transactions = transactions;
        this.acknowledgements = acknowledgements;
        this.commits = commits;
        this.rewind = rewind;
        this.failure = failure;
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
            abortAndRewind(whyNotAcknowledged());
            return;
        }
        try {
            commits.commitInTransaction(positions -> transactions.commit(positions, started));
        } catch (RetryableException e) {
            transactions.abortedByCommit();
            LOG.warn(
                    "pipeline '{}': transaction aborted at commit ({}); reading again from the last commit",
                    pipeline,
                    e.getMessage());
            rewind.rewind(transactions);
        }
    }

    /** Before a revoke: the open transaction (over every partition) commits, or aborts if it was doomed. */
    void endBeforeRevoke(Duration waitUpTo) {
        if (transactions.failure() != null) {
            abortAndRewind(transactions.failure());
        } else {
            commit(System.nanoTime() + waitUpTo.toNanos());
        }
    }

    /**
     * The last transaction, at shutdown: committed when the drain completed, aborted otherwise.
     *
     * @param drained whether every sink wrote everything it was given
     */
    void finish(long deadline, boolean drained) {
        try {
            EtlException doomed = transactions.failure();
            if (doomed != null || !drained) {
                LOG.error(
                        "pipeline '{}': aborting the last transaction ({}); its records replay after a restart",
                        pipeline,
                        doomed != null ? doomed.getMessage() : "the drain did not complete");
                if (doomed instanceof FatalException) {
                    // fenced or broken: the brokers abort it (a newer instance already did, or the timeout will)
                    failure.keepFirst(doomed);
                    return;
                }
                transactions.abort();
                return;
            }
            commit(deadline);
        } catch (RuntimeException e) {
            LOG.error("pipeline '{}': the last transaction failed: {}", pipeline, e.getMessage());
            failure.keepFirst(e);
        }
    }

    /**
     * Why the open transaction cannot commit: a writer's error, the run failing on its own account (the wait ended
     * early, not at the drain timeout), or outputs unacknowledged for the whole drain timeout.
     */
    private EtlException whyNotAcknowledged() {
        if (transactions.failure() != null) {
            return transactions.failure();
        }
        if (failure.failed()) {
            return new RetryableException(
                    "the pipeline is failing; the outputs of the open transaction were not all acknowledged");
        }
        return new RetryableException("outputs still unacknowledged after " + drainTimeout + " at the checkpoint");
    }

    /** Seals every open batch and waits until every record that entered is done (or a writer's error). */
    private boolean awaitAllAcknowledged(long deadline) {
        return acknowledgements.all(deadline, () -> transactions.failure() != null)
                && transactions.failure() == null
                && !failure.failed();
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
        if (!acknowledgements.allWrites(System.nanoTime() + drainTimeout.toNanos())) {
            throw new FatalException("pipeline '" + pipeline + "': writes of an aborted transaction still unfinished"
                    + " after " + drainTimeout + "; stopping rather than letting them reach the next transaction");
        }
        transactions.abort();
        rewind.rewind(transactions);
    }
}
