package io.etl.core.record;

import java.util.Objects;

/**
 * A value travelling through the pipeline together with the metadata of the source record it came
 * from.
 *
 * @param value the value; may be null only where a source or operator deliberately produces null
 * @param meta  where the value came from
 * @param <T>   value type
 */
public record Record<T>(T value, RecordMeta meta) {

    public Record {
        Objects.requireNonNull(meta, "meta");
    }

    /** The same metadata with another value. */
    public <R> Record<R> withValue(R newValue) {
        return new Record<>(newValue, meta);
    }
}
