package io.etl.core.error;

/**
 * What a stage does with a record that failed ({@link RecordException}).
 * <ul>
 *   <li>{@link #SKIP}: drop it, count it in {@code etl_records_dropped_total{reason}}, go on.</li>
 *   <li>{@link #FAIL}: stop the pipeline; nothing at or after the record is committed.</li>
 *   <li>{@link #DEAD_LETTER}: hand it to the pipeline's {@link DeadLetterHandler}; it counts as done
 *       once the handler confirmed it.</li>
 *   <li>{@link #RETRY}: write it, as it was read, to the next of the pipeline's retry topics (the {@code retry}
 *       section), from which the same pipeline reads it again once its delay has passed; after the last one the
 *       section's {@code then} policy applies. It counts as done once it is durable in the retry topic. Operators
 *       and split predicates only.</li>
 * </ul>
 */
public enum ErrorPolicy {
    SKIP,
    FAIL,
    DEAD_LETTER,
    RETRY
}
