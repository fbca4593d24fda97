package io.etl.core.error;

import io.etl.core.record.RecordMeta;
import java.util.concurrent.CompletionStage;

/**
 * Receives records that a stage with policy {@link ErrorPolicy#DEAD_LETTER} rejected, for pipelines that
 * store dead letters in code instead of the {@code dead_letter} section (a dead-letter topic that needs no
 * code). The source record is only committed past once the returned stage completes normally; a failed
 * stage fails the pipeline. Called on the pipeline thread, also for records a sink's destination refused
 * (those are handed over from the sink's worker first).
 */
@FunctionalInterface
public interface DeadLetterHandler {

    /**
     * @param meta  where the rejected record came from; {@link RecordMeta#payload()} holds the bytes as read
     *              when the source keeps them
     * @param value the value as the failing stage saw it (null when it failed to decode or the destination
     *              refused the encoded message)
     * @param error why it was rejected
     * @return completes once the dead letter is stored durably
     */
    CompletionStage<Void> deadLetter(RecordMeta meta, Object value, RecordException error);
}
