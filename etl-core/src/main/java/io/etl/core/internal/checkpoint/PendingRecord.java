package io.etl.core.internal.checkpoint;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One source record whose outputs are not all durable yet. Starts with one hold, taken by the pipeline
 * thread while the chain runs; every output takes one more; the record is done when no hold is left.
 *
 * <p>Holds come in two kinds. Those another thread may release (a sink worker, an asynchronous stage, a
 * dead-letter write) are counted atomically. Those the pipeline thread takes and releases itself (the chain's
 * own hold, and the outputs of sinks whose writes it settles) are a plain count only that thread touches: an
 * atomic update is a full fence, so acknowledging a batch would otherwise wait for each of its records' cache
 * lines one after another, where plain updates let the processor fetch them together.
 */
public final class PendingRecord {

    private static final VarHandle REMAINING;

    static {
        try {
            REMAINING = MethodHandles.lookup().findVarHandle(PendingRecord.class, "remaining", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final long offset;
    /** Holds any thread may release. */
    private volatile int remaining;
    /** Holds of the pipeline thread, touched by it alone; the chain's own hold is the first. */
    private int pipelineHolds = 1;

    private volatile Throwable failure;
    private volatile long failedAtNanos;

    public PendingRecord(long offset) {
        this.offset = offset;
    }

    public long offset() {
        return offset;
    }

    /** One more output must become durable before this record is done. */
    public void retain() {
        REMAINING.getAndAdd(this, 1);
    }

    /** One output became durable (or the chain finished with this record). */
    public void release() {
        int before = (int) REMAINING.getAndAdd(this, -1);
        if (before <= 0) {
            REMAINING.getAndAdd(this, 1);
            throw new IllegalStateException("record at offset " + offset + " released more often than retained");
        }
    }

    /** One more output must become durable; the pipeline thread takes this hold and will release it itself. */
    public void retainOnPipeline() {
        pipelineHolds++;
    }

    /** Releases a hold of {@link #retainOnPipeline()} (or the chain's own). Pipeline thread only. */
    public void releaseOnPipeline() {
        if (--pipelineHolds < 0) {
            pipelineHolds++;
            throw new IllegalStateException("record at offset " + offset + " released more often than retained");
        }
    }

    /**
     * Makes one of the pipeline thread's holds one that any thread may release ({@link #release()}), for an output
     * whose end is decided elsewhere. Pipeline thread only.
     */
    public void handOffHold() {
        retain();
        releaseOnPipeline();
    }

    /** Whether every hold was released. Pipeline thread. */
    public boolean isDone() {
        return pipelineHolds == 0 && remaining == 0;
    }

    /** Marks that an output of this record can never become durable. The record stays pending for ever. */
    public void fail(Throwable cause) {
        if (failure == null) {
            failedAtNanos = System.nanoTime();
            failure = cause;
        }
    }

    /** Why an output failed fatally, or null. */
    public Throwable failure() {
        return failure;
    }

    public long failedAtNanos() {
        return failedAtNanos;
    }
}
