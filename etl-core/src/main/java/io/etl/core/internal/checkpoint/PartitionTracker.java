package io.etl.core.internal.checkpoint;

import io.etl.core.source.SourcePartition;
import java.util.ArrayDeque;

/**
 * The records of one assigned source partition that are not done yet, in offset order. Owned by the
 * pipeline thread; a new tracker is made for every assignment, so acknowledgements for records of an
 * earlier assignment can never move this one's watermark.
 */
public final class PartitionTracker {

    private final SourcePartition partition;
    private final ArrayDeque<PendingRecord> pending = new ArrayDeque<>();
    private long next = -1L;
    private long committed = -1L;
    private long first = -1L;

    public PartitionTracker(SourcePartition partition) {
        this.partition = partition;
    }

    public SourcePartition partition() {
        return partition;
    }

    /**
     * Records that the chain has finished with {@code record}: it is tracked until {@link #watermark()} finds it
     * done at the head. A record that is done already is queued too: whether it is depends on how far the sinks
     * are behind, and a branch on that in the per-record path is one the JIT would compile for one load and
     * deoptimize at the next.
     */
    public void processed(PendingRecord record) {
        if (first < 0) {
            first = record.offset();
        }
        next = record.offset() + 1;
        pending.addLast(record);
    }

    /**
     * The offset to commit: the lowest offset not done yet, or the offset after the last processed record
     * when all are done; -1 when no record was processed in this assignment.
     */
    public long watermark() {
        PendingRecord head;
        while ((head = pending.peekFirst()) != null && head.isDone()) {
            pending.pollFirst();
        }
        return head != null ? head.offset() : next;
    }

    /** The oldest record that is not done, or null. Call {@link #watermark()} first to drop done ones. */
    public PendingRecord oldestPending() {
        return pending.peekFirst();
    }

    /** The first record of this partition whose output failed fatally, or null (scans every pending record). */
    public PendingRecord firstFailed() {
        for (PendingRecord r : pending) {
            if (r.failure() != null) {
                return r;
            }
        }
        return null;
    }

    /** Number of records tracked (done records at the head are dropped by {@link #watermark()}). */
    public int pendingCount() {
        return pending.size();
    }

    /** Whether every processed record is done. */
    public boolean isIdle() {
        watermark();
        return pending.isEmpty();
    }

    /** The offset of the first record processed in this assignment, or -1. */
    public long first() {
        return first;
    }

    /** The last offset the source confirmed as committed in this assignment, or -1. */
    public long committed() {
        return committed;
    }

    /**
     * Offsets between the last confirmed commit (or the first record of this assignment) and the
     * watermark: every one of them is done, and a crash now would read them again.
     */
    public long replayWindow() {
        long wm = watermark();
        long base = committed >= 0 ? committed : first;
        return wm < 0 || base < 0 ? 0 : Math.max(0, wm - base);
    }

    public void markCommitted(long offset) {
        committed = Math.max(committed, offset);
    }
}
