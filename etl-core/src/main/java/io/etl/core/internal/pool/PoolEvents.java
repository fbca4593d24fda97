package io.etl.core.internal.pool;

import io.etl.core.error.ErrorPolicy;
import io.etl.core.error.RecordException;
import io.etl.core.internal.checkpoint.PendingRecord;
import io.etl.core.record.RecordMeta;
import io.etl.core.sink.SealedBatch;

/** What a sink pool tells the pipeline: progress (to wake waiters) and fatal batch failures. */
public interface PoolEvents {

    /** A batch became durable; waiters for idle partitions may re-check. */
    void acknowledged();

    /** A batch can never become durable; its records stay pending and their partitions stall. */
    void batchFailed(SealedBatch<?> batch, Throwable cause);

    /** Batches were given up at shutdown; they replay after a restart. */
    void batchesAbandoned(String sink, int shard, int batches, long records);

    /**
     * The destination refused one message of an acknowledged batch on its own account; the sink's
     * {@code on_error} policy applies. {@code owner} still holds that message's hold, which the receiver
     * must release (or fail) once the policy is carried out. Called on the shard's worker thread.
     */
    void refused(
            String sink,
            ErrorPolicy policy,
            RecordMeta source,
            PendingRecord owner,
            RecordException error,
            int attempts);
}
