package io.etl.core.internal.pool;

import io.etl.core.sink.SealedBatch;

/** What a sink pool tells the pipeline: progress (to wake waiters) and fatal batch failures. */
public interface PoolEvents {

    /** A batch became durable; waiters for idle partitions may re-check. Called by a shard's worker thread. */
    void acknowledged();

    /**
     * A write of a shard that the pipeline thread drives completed, on the writer's thread: the pipeline thread
     * settles it, and should be woken if it waits. The default does nothing (nobody waits).
     */
    default void writeCompleted() {}

    /** A batch can never become durable; its records stay pending and their partitions stall. */
    void batchFailed(SealedBatch<?> batch, Throwable cause);

    /** Batches were given up at shutdown; they replay after a restart. */
    void batchesAbandoned(String sink, int shard, int batches, long records);

    /**
     * The destination refused one message of an acknowledged batch on its own account; the refusal's
     * policy applies, and its owner's hold must be released (or failed) once it is carried out. Called on
     * the shard's worker thread.
     */
    void refused(Refusal refusal);
}
