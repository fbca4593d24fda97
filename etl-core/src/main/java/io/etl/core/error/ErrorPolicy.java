package io.etl.core.error;

/**
 * What a stage does with a record that failed ({@link RecordException}).
 * <ul>
 *   <li>{@link #SKIP}: drop it, count it in {@code etl_records_dropped_total{reason}}, go on.</li>
 *   <li>{@link #FAIL}: stop the pipeline; nothing at or after the record is committed.</li>
 *   <li>{@link #DEAD_LETTER}: hand it to the pipeline's {@link DeadLetterHandler}; it counts as done
 *       once the handler confirmed it.</li>
 * </ul>
 */
public enum ErrorPolicy {
    SKIP,
    FAIL,
    DEAD_LETTER
}
