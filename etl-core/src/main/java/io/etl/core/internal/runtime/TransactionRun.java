package io.etl.core.internal.runtime;

import io.etl.core.checkpoint.TransactionalCheckpoint;
import io.etl.core.error.EtlException;
import io.etl.core.internal.pool.RefusedOutputs;
import io.etl.core.metrics.EtlMetrics;
import io.etl.core.record.RecordMeta;
import io.etl.core.source.SourcePartition;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The pipeline thread's side of exactly-once delivery: whether a transaction is open, where each partition
 * must be read again from if it aborts, which outputs were refused in the transactions that aborted, and the
 * transaction meters. The runner decides when to commit.
 */
final class TransactionRun {

    private final TransactionalCheckpoint checkpoint;
    private final RefusedOutputs refused;
    private final Counter committed;
    private final Counter aborted;
    private final Timer commitLatency;
    private final DistributionSummary records;
    /** Per partition, the first offset not covered by a committed transaction: where an abort reads again. */
    private final Map<SourcePartition, Long> restart = new HashMap<>();

    private boolean open;

    TransactionRun(TransactionalCheckpoint checkpoint, RefusedOutputs refused, MeterRegistry registry, Tags tags) {
        this.checkpoint = checkpoint;
        this.refused = refused;
        this.committed = registry.counter(EtlMetrics.TRANSACTIONS, tags.and(EtlMetrics.TAG_OUTCOME, "committed"));
        this.aborted = registry.counter(EtlMetrics.TRANSACTIONS, tags.and(EtlMetrics.TAG_OUTCOME, "aborted"));
        this.commitLatency =
                Timer.builder(EtlMetrics.TRANSACTION_COMMIT).tags(tags).register(registry);
        this.records = DistributionSummary.builder(EtlMetrics.TRANSACTION_RECORDS)
                .tags(tags)
                .register(registry);
    }

    /** Before {@code meta}'s record enters the chain: opens a transaction if none is, remembers the position. */
    void entering(RecordMeta meta) {
        if (!open) {
            refused.transactionBegun();
            checkpoint.begin();
            open = true;
        }
        restart.putIfAbsent(new SourcePartition(meta.topic(), meta.partition()), meta.offset());
    }

    boolean isOpen() {
        return open;
    }

    /** An error a writer met in the open transaction, or an output its destination refused in it; else null. */
    EtlException failure() {
        if (!open) {
            return null;
        }
        EtlException writer = checkpoint.failure();
        return writer != null ? writer : refused.failure();
    }

    /**
     * Commits the open transaction with {@code positions}; they become the restart points.
     *
     * @param startedNanos when the checkpoint began (before waiting for open batches)
     */
    void commit(Map<SourcePartition, Long> positions, long startedNanos) {
        open = false;
        long messages = checkpoint.commit(positions);
        restart.putAll(positions);
        refused.committed(positions);
        committed.increment();
        records.record(messages);
        commitLatency.record(System.nanoTime() - startedNanos, TimeUnit.NANOSECONDS);
    }

    /** Counts a transaction that the checkpoint aborted itself when its commit failed. */
    void abortedByCommit() {
        aborted.increment();
    }

    /** Aborts the open transaction, if any. */
    void abort() {
        if (open) {
            open = false;
            aborted.increment();
            checkpoint.abort();
        }
    }

    /**
     * Where each partition must be read from again after an abort: the last committed position, or for a
     * partition with nothing committed in this run, the first record read; records still buffered count too.
     */
    Map<SourcePartition, Long> rewindPoints(List<RecordMeta> buffered) {
        Map<SourcePartition, Long> points = new HashMap<>(restart);
        for (RecordMeta m : buffered) {
            points.putIfAbsent(new SourcePartition(m.topic(), m.partition()), m.offset());
        }
        return points;
    }

    /** Partitions that left this instance: their positions belong to the next owner. */
    void released(Collection<SourcePartition> partitions) {
        partitions.forEach(restart::remove);
        refused.released(partitions);
    }
}
