package io.etl.core.sink;

import io.etl.core.error.RecordException;
import io.etl.core.record.RecordMeta;

/**
 * Turns a pipeline value into a sink message. Runs on the pipeline thread, once per output; a
 * {@link RecordException} (for example an oversized message) is handled by the sink's error policy.
 *
 * @param <T> value type accepted
 * @param <M> message type produced
 */
public interface Encoder<T, M> {

    /**
     * @param value       the value reaching the sink
     * @param meta        the source record's metadata (key, headers, position)
     * @param outputIndex index of this output among all outputs of the same source record, stable across
     *                    replays (0 for the first)
     */
    M encode(T value, RecordMeta meta, int outputIndex) throws RecordException;

    /** Encoded size in bytes, used for {@code batch.max_bytes}. */
    long sizeOf(M message);

    /**
     * Hash that picks the shard; messages with equal hashes keep their order. Defaults to the source key's
     * hash so records with the same key stay in order.
     */
    default int shardHash(M message, RecordMeta meta) {
        return meta.keyHash();
    }
}
