package io.etl.core.sink;

import io.etl.core.error.RecordException;
import io.etl.core.record.RecordMeta;
import io.etl.core.record.TraceContext;

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

    /**
     * Encodes an output that must carry a W3C trace context; the pipeline calls this instead of
     * {@link #encode(Object, RecordMeta, int)} whenever it propagates one (see {@code pipeline.tracing}).
     * Connectors whose messages have headers override it and put {@code trace} on the message
     * ({@link TraceContext#applyTo}); the default ignores it.
     *
     * @param trace the trace context of this output, never null
     */
    default M encode(T value, RecordMeta meta, int outputIndex, TraceContext trace) throws RecordException {
        return encode(value, meta, outputIndex);
    }

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
