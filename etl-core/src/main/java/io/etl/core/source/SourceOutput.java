package io.etl.core.source;

import io.etl.core.record.RecordMeta;

/**
 * Where a source delivers what it polled, in partition order. The pipeline may run a record through its
 * chain before {@code emit} returns, on the polling thread, so a source hands over each record as soon as it
 * is decoded rather than decoding a whole poll first.
 *
 * @param <T> value type
 */
public interface SourceOutput<T> {

    /** A decoded record. */
    void emit(T value, RecordMeta meta);

    /** A record that could not be decoded; the source's error policy applies. */
    void decodeFailed(RecordMeta meta, Throwable cause);
}
