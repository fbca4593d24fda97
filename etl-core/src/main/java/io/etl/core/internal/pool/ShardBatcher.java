package io.etl.core.internal.pool;

import io.etl.core.internal.checkpoint.PendingRecord;
import io.etl.core.record.RecordMeta;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The pipeline thread's half of a sink shard: it fills the open batch, decides when to seal it (full, lingered,
 * or at once while the shard's {@link ShardWindow} has room for it) and hands sealed batches to that window's
 * bounded queue, keeping those the queue has no room for until it has. When the window would write the batch at
 * once and its writer takes messages as they come, the batch's first attempt starts with its first message and
 * every message is handed over as it is added ({@link ShardWindow#openWrite()}). Used on the pipeline thread only.
 */
final class ShardBatcher<M> {

    private final SinkPool<?, M> pool;
    private final int index;
    private final ShardWindow<M> window;
    private final OpenBatch<M> open;
    private final ArrayDeque<Batch<M>> overflow = new ArrayDeque<>();
    private final int overflowLimit;
    private long nextSequence;

    ShardBatcher(SinkPool<?, M> pool, int index, ShardWindow<M> window) {
        this.pool = pool;
        this.index = index;
        this.window = window;
        var config = pool.config();
        this.open = new OpenBatch<>(
                config.batch().maxRecords(), config.batch().maxBytes().bytes(), pool.clock());
        this.overflowLimit = config.queue();
    }

    void append(M message, long size, PendingRecord owner, RecordMeta source, int output) {
        if (open.wouldOverflow(size) || window.hasOpenAttempt() && window.holding()) {
            seal();
        }
        if (open.isEmpty() && overflow.isEmpty()) {
            window.openWrite();
        }
        boolean full = open.add(message, size, owner, source, output);
        window.handOver(message);
        if (full) {
            seal();
        }
    }

    void seal() {
        if (window.hasOpenAttempt() && !open.isEmpty()) {
            window.closeWrite(open.seal(pool.name(), index, nextSequence++));
            pool.handedOver(window);
            return;
        }
        if (!open.isEmpty()) {
            if (overflow.isEmpty()) {
                pool.overflowStarted();
            }
            overflow.addLast(open.seal(pool.name(), index, nextSequence++));
            if (!flush() && overflow.size() > overflowLimit) {
                awaitRoom();
            }
        }
    }

    /**
     * The pipeline checks backpressure between source records, but one record may make many batches (a
     * large flatMap fan-out): past {@code queue} sealed batches waiting, the pipeline thread waits here for
     * the window to take some, so memory stays bounded by configuration.
     */
    private void awaitRoom() {
        while (overflow.size() > overflowLimit && !window.endedOrAborting()) {
            LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(1));
            flush();
        }
    }

    /**
     * Adaptive batching: seals the open batch at once when the shard's write window has room for it (the
     * worker would write it now: waiting would only add latency), otherwise once it has lingered for
     * {@code lingerNanos}. Under load the window stays full, so batches grow while earlier ones are in flight.
     */
    void sealIfLingered(long nowNanos, long lingerNanos) {
        if (!open.isEmpty() && (sealsAtOnce() || nowNanos - open.openedAtNanos() >= lingerNanos)) {
            seal();
        }
    }

    /**
     * Seals the open batch when the worker has nothing at all to write (nothing queued, waiting or in
     * flight): between two polls the pipeline may push many records, and an idle writer should not wait for
     * all of them. A busy writer is left alone, so batches still grow under load.
     */
    void sealIfIdle() {
        boolean idle =
                window.hasOpenAttempt() ? window.onlyOpenAttempt() : window.inflightBatches() == 0 && windowHasRoom();
        if (!open.isEmpty() && idle) {
            seal();
        }
    }

    /**
     * Nanosecond time at which the open batch must be sealed (its opening time when the write window has
     * room), or Long.MAX_VALUE when it is empty.
     */
    long lingerDeadline(long lingerNanos) {
        if (open.isEmpty()) {
            return Long.MAX_VALUE;
        }
        return sealsAtOnce() ? open.openedAtNanos() : open.openedAtNanos() + lingerNanos;
    }

    /**
     * Whether the open batch is sealed without lingering: it would be written at once, or, when its first attempt
     * is open already, the window has room besides it, nothing else is in flight, or a retry waits for it.
     */
    private boolean sealsAtOnce() {
        return window.hasOpenAttempt() ? window.openAttemptSealsNow() : windowHasRoom();
    }

    /**
     * Whether a batch sealed now would be written at once: no sealed batch of this shard waits here, and the
     * window would take it ({@link ShardWindow#hasRoom()}).
     */
    private boolean windowHasRoom() {
        return overflow.isEmpty() && window.hasRoom();
    }

    /**
     * Moves sealed batches into the window's queue as far as it has room, and tells the window's driver; true when
     * nothing is left waiting. A window the pipeline thread drives first settles what completed, which may make
     * room.
     */
    boolean flush() {
        if (overflow.isEmpty()) {
            return true;
        }
        if (window.drivenInline()) {
            pool.pump(window, System.nanoTime());
        }
        Batch<M> b;
        boolean moved = false;
        while ((b = overflow.peekFirst()) != null && window.offer(b)) {
            overflow.pollFirst();
            moved = true;
        }
        if (moved) {
            if (overflow.isEmpty()) {
                pool.overflowEnded();
            }
            pool.handedOver(window);
        }
        return overflow.isEmpty();
    }

    /** Counts batches that never reached the queue as abandoned; after the worker stopped. */
    void abandonOverflow() {
        int batches = overflow.size();
        long records = 0;
        for (Batch<M> b : overflow) {
            records += b.size();
        }
        overflow.clear();
        if (batches > 0) {
            pool.overflowEnded();
            pool.metrics().abandoned(batches);
            pool.events().batchesAbandoned(pool.name(), index, batches, records);
        }
    }

    /** Whether sealed batches wait for room in the queue (the pipeline must stop feeding). */
    boolean blocked() {
        return !overflow.isEmpty();
    }

    /** Seals the open batch and moves everything into the queue, waiting for room until the deadline. */
    boolean flushAll(long deadlineNanos) {
        seal();
        while (!flush()) {
            if (System.nanoTime() >= deadlineNanos || window.ended()) {
                return false;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        return true;
    }
}
