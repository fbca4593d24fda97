package io.etl.core;

import io.etl.core.sink.Sink;
import java.util.Collection;

/**
 * Branches of a keyed {@link RecordStream#split(String, java.util.function.Function, java.util.function.Function)}:
 * the split computes each value's key once and hands the value to the branch registered for that key (compared with
 * {@code equals}), however many branches there are. A value whose key no branch names, or whose key is
 * {@code null}, goes to {@link #otherwise} or is dropped by {@link #dropUnmatched()}; one of the two is required. A
 * key names at most one branch; a branch may take several keys.
 *
 * <pre>{@code
 * .split("by-region", Order::region, s -> s
 *     .branch("eu", "eu", euSink)
 *     .branch("us", List.of("us", "ca"), usSink)
 *     .otherwise(restSink))
 * }</pre>
 *
 * @param <T> value type
 * @param <K> key type
 */
public interface KeyedSplit<T, K> {

    /**
     * Adds a branch for the values whose key equals {@code key}; {@code name} must be unique within the pipeline.
     *
     * @throws IllegalArgumentException when {@code key} is null or an earlier branch took it
     */
    KeyedSplit<T, K> branch(String name, K key, Sink<? super T, ?> sink);

    /**
     * Adds a branch for the values whose key equals any of {@code keys}.
     *
     * @throws IllegalArgumentException when {@code keys} is empty, holds null, or holds a key an earlier branch took
     */
    KeyedSplit<T, K> branch(String name, Collection<? extends K> keys, Sink<? super T, ?> sink);

    /** Where values whose key names no branch go. */
    Split.End<T> otherwise(Sink<? super T, ?> sink);

    /** Values whose key names no branch are done at once (counted as filtered by the split). */
    Split.End<T> dropUnmatched();
}
