package io.etl.core.error;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import io.etl.core.record.Header;
import io.etl.core.record.RecordMeta;
import java.util.ArrayList;
import java.util.List;

/**
 * A source record that a stage with policy {@link ErrorPolicy#RETRY} rejected, on its way to a retry topic: its key,
 * headers and value bytes as they were read ({@link RecordMeta#payload()}), plus where it first came from, how often it
 * failed, when it is due again and its history. The pipeline hands these to the {@code retry} section's sink, whose
 * connector writes {@link #key()}, {@link #value()} and {@link #headers()} to {@link #topic()}; the same pipeline reads
 * it back from there once {@link #dueAt()} has passed.
 *
 * <p>{@link #headers()} are the source headers, without the {@code etl.retry.*} headers of an earlier attempt (its
 * {@value #HISTORY_HEADER} entries are kept when the record comes from one of the pipeline's retry topics), followed by:
 * <ul>
 *   <li>{@value #TOPIC_HEADER}: the topic the record was first read from, which names its retry topics</li>
 *   <li>{@value #SOURCE_HEADER}: {@code <topic>-<partition>@<offset>} where it was first read</li>
 *   <li>{@value #ATTEMPT_HEADER}: how many times it failed so far, 1 after the first failure</li>
 *   <li>{@value #DUE_HEADER}: when it is to be tried again, epoch milliseconds</li>
 *   <li>{@value #PIPELINE_HEADER}: the pipeline's name</li>
 *   <li>{@value #HISTORY_HEADER}: one header per failure, oldest first, a JSON object
 *       {@code {"attempt":1,"time":<epoch ms>,"stage":"operator:enrich","reason":"operator","error":"..."}}</li>
 * </ul>
 *
 * @param pipeline    the pipeline's name
 * @param stage       where it failed, as a dead letter names it ({@code operator:<name>}, {@code split:<name>})
 * @param source      the record as it was read this time (from the first topic or from a retry topic)
 * @param error       why it failed this time
 * @param topic       the retry topic to write it to
 * @param originTopic the topic it was first read from
 * @param origin      where it was first read, {@code <topic>-<partition>@<offset>}
 * @param attempt     how many times it failed, this failure included
 * @param dueAt       when it is to be tried again, epoch milliseconds
 * @param timestamp   when it failed, epoch milliseconds
 */
public record RetryLetter(
        String pipeline,
        String stage,
        RecordMeta source,
        RecordException error,
        String topic,
        String originTopic,
        String origin,
        int attempt,
        long dueAt,
        long timestamp) {

    /** Header prefix shared by every header the pipeline adds to a record on its way to a retry topic. */
    public static final String HEADER_PREFIX = "etl.retry.";

    public static final String TOPIC_HEADER = "etl.retry.topic";
    public static final String SOURCE_HEADER = "etl.retry.source";
    public static final String ATTEMPT_HEADER = "etl.retry.attempt";
    public static final String DUE_HEADER = "etl.retry.due";
    public static final String PIPELINE_HEADER = "etl.retry.pipeline";
    public static final String HISTORY_HEADER = "etl.retry.history";

    /** The source key bytes, or null. */
    public byte[] key() {
        return source.key();
    }

    /** The source value bytes as read, or null (a tombstone, or a source that does not keep them). */
    public byte[] value() {
        return source.payload();
    }

    /** The source headers, then the {@code etl.retry.*} headers of this attempt. */
    public List<Header> headers() {
        List<Header> original = source.headers();
        List<Header> out = new ArrayList<>(original.size() + 6);
        for (Header h : original) {
            String key = h.key();
            if (!key.startsWith(HEADER_PREFIX) || (attempt > 1 && key.equals(HISTORY_HEADER))) {
                out.add(h);
            }
        }
        out.add(Header.of(HISTORY_HEADER, historyEntry()));
        out.add(Header.of(TOPIC_HEADER, originTopic));
        out.add(Header.of(SOURCE_HEADER, origin));
        out.add(Header.of(ATTEMPT_HEADER, Integer.toString(attempt)));
        out.add(Header.of(DUE_HEADER, Long.toString(dueAt)));
        out.add(Header.of(PIPELINE_HEADER, pipeline));
        return out;
    }

    /** This failure as one {@value #HISTORY_HEADER} value. */
    String historyEntry() {
        JsonStringEncoder json = JsonStringEncoder.getInstance();
        return "{\"attempt\":" + attempt + ",\"time\":" + timestamp + ",\"stage\":\""
                + new String(json.quoteAsString(stage)) + "\",\"reason\":\""
                + new String(json.quoteAsString(error.reason())) + "\",\"error\":\""
                + new String(json.quoteAsString(DeadLetter.describe(error))) + "\"}";
    }
}
