package io.etl.core.source;

import io.etl.core.record.RecordMeta;

/**
 * Where a source delivers what it polled, in partition order.
 *
 * @param <T> value type
 */
public interface SourceOutput<T> {

    /** A decoded record. */
    void emit(T value, RecordMeta meta);

    /** A record that could not be decoded; the source's error policy applies. */
    void decodeFailed(RecordMeta meta, Throwable cause);
}
