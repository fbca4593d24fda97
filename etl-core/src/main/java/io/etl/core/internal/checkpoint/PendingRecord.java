package io.etl.core.internal.checkpoint;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One source record whose outputs are not all durable yet. Starts with one hold, taken by the pipeline
 * thread while the chain runs; every output takes one more; the record is done when the count reaches
 * zero. Decrements come from sink worker threads, so the count is atomic but lock-free.
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
    private volatile int remaining = 1;
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

    public boolean isDone() {
        return remaining == 0;
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
