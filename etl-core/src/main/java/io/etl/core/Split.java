package io.etl.core;

import io.etl.core.sink.Sink;
import java.util.function.Predicate;

/**
 * Branches of a {@link RecordStream#split} terminal. By default a value goes to the first branch whose
 * predicate holds (as in Kafka Streams); after {@link #toAllMatching()} it goes to every matching branch,
 * and its source record is done only when every one of those outputs is durable. Values no branch
 * takes go to {@link #otherwise} or are dropped by {@link #dropUnmatched()}; one of the two is required.
 *
 * @param <T> value type
 */
public interface Split<T> {

    /** Adds a branch; {@code name} must be unique within the pipeline. */
    Split<T> branch(String name, Predicate<? super T> predicate, Sink<? super T, ?> sink);

    /** Sends each value to every matching branch instead of the first. */
    Split<T> toAllMatching();

    /** Where values that match no branch go. */
    End<T> otherwise(Sink<? super T, ?> sink);

    /** Values that match no branch are done at once (counted as filtered by the split). */
    End<T> dropUnmatched();

    /**
     * A complete split: every value has somewhere to go.
     *
     * @param <T> value type
     */
    interface End<T> {}
}
