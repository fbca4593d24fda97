package io.etl.core.error;

import io.etl.core.record.RecordMeta;
import java.util.concurrent.CompletionStage;

/**
 * Receives records that a stage with policy {@link ErrorPolicy#DEAD_LETTER} rejected. The source record
 * is only committed past once the returned stage completes normally; a failed stage fails the pipeline.
 * A connector may offer an implementation (for example a dead-letter topic).
 */
@FunctionalInterface
public interface DeadLetterHandler {

    /**
     * @param meta  where the rejected record came from
     * @param value the value as the failing stage saw it (may be null when it failed to decode)
     * @param error why it was rejected
     * @return completes once the dead letter is stored durably
     */
    CompletionStage<Void> deadLetter(RecordMeta meta, Object value, RecordException error);
}
