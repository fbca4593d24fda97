package io.etl.core;

import io.etl.core.record.RecordMeta;

/**
 * A record-level operator: sees each value with its source metadata and emits zero or more outputs.
 *
 * @param <T> input type
 * @param <R> output type
 */
@FunctionalInterface
public interface RecordProcessor<T, R> {

    /** Processes one value; call {@code out.emit} once per output, in order. */
    void process(T value, RecordMeta meta, Emitter<R> out) throws Exception;

    /**
     * Receives the outputs of a {@link RecordProcessor}.
     *
     * @param <R> output type
     */
    @FunctionalInterface
    interface Emitter<R> {
        void emit(R value);
    }
}
