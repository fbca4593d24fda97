package io.etl.core.error;

import io.etl.core.record.Header;
import io.etl.core.record.RecordMeta;
import java.util.ArrayList;
import java.util.List;

/**
 * A source record that a stage rejected under policy {@link ErrorPolicy#DEAD_LETTER}, as it was read: its
 * key, headers and value bytes ({@link RecordMeta#payload()}), plus why, where and when it was rejected.
 * The pipeline hands these to the {@code dead_letter} sink, whose connector writes {@link #key()},
 * {@link #value()} and {@link #headers()} unchanged.
 *
 * <p>{@link #headers()} are the source headers followed by the {@code etl.dlq.*} headers below (an earlier
 * {@code etl.dlq.*} header, from a record that was itself replayed from a dead-letter topic, is replaced):
 * <ul>
 *   <li>{@value #STAGE_HEADER}: {@code decode}, {@code operator:<name>}, {@code split:<name>},
 *       {@code encode:<sink>} or {@code produce:<sink>}</li>
 *   <li>{@value #REASON_HEADER}: the error's {@link RecordException#reason() reason} tag: {@code decode},
 *       {@code operator}, {@code encode}, {@code oversized}, {@code produce} or a connector's own</li>
 *   <li>{@value #ERROR_HEADER}: exception class and message, at most {@value #MAX_ERROR_CHARS} characters</li>
 *   <li>{@value #SOURCE_HEADER}: {@code <topic>-<partition>@<offset>}</li>
 *   <li>{@value #TIMESTAMP_HEADER}: when it was rejected, epoch milliseconds</li>
 *   <li>{@value #PIPELINE_HEADER}: the pipeline's name</li>
 *   <li>{@value #ATTEMPTS_HEADER}: how many times the stage was tried, only when it was retried</li>
 * </ul>
 *
 * @param pipeline  the pipeline's name
 * @param stage     {@code decode}, {@code operator:<name>}, {@code split:<name>}, {@code encode:<sink>} or
 *                  {@code produce:<sink>}
 * @param source    the rejected source record
 * @param error     why it was rejected
 * @param attempts  how many times the stage was tried (1 when it was not retried)
 * @param timestamp when it was rejected, epoch milliseconds
 */
public record DeadLetter(
        String pipeline, String stage, RecordMeta source, RecordException error, int attempts, long timestamp) {

    /** Header prefix shared by every header the pipeline adds to a dead letter. */
    public static final String HEADER_PREFIX = "etl.dlq.";

    public static final String STAGE_HEADER = "etl.dlq.stage";
    public static final String REASON_HEADER = "etl.dlq.reason";
    public static final String ERROR_HEADER = "etl.dlq.error";
    public static final String SOURCE_HEADER = "etl.dlq.source";
    public static final String TIMESTAMP_HEADER = "etl.dlq.timestamp";
    public static final String PIPELINE_HEADER = "etl.dlq.pipeline";
    public static final String ATTEMPTS_HEADER = "etl.dlq.attempts";
    /** Longest {@value #ERROR_HEADER} value, in characters; longer ones end with {@code ...}. */
    public static final int MAX_ERROR_CHARS = 1000;

    /** Stage of a record that failed to decode. */
    public static final String DECODE_STAGE = "decode";

    /** {@code operator:<name>}. */
    public static String operatorStage(String name) {
        return "operator:" + name;
    }

    /** {@code split:<name>}. */
    public static String splitStage(String name) {
        return "split:" + name;
    }

    /** {@code encode:<sink>}. */
    public static String encodeStage(String sink) {
        return "encode:" + sink;
    }

    /** {@code produce:<sink>}. */
    public static String produceStage(String sink) {
        return "produce:" + sink;
    }

    /** The source key bytes, or null. */
    public byte[] key() {
        return source.key();
    }

    /** The source value bytes as read, or null (a tombstone, or a source that does not keep them). */
    public byte[] value() {
        return source.payload();
    }

    /** The source headers followed by the {@code etl.dlq.*} headers. */
    public List<Header> headers() {
        List<Header> original = source.headers();
        List<Header> out = new ArrayList<>(original.size() + 7);
        for (Header h : original) {
            if (!h.key().startsWith(HEADER_PREFIX)) {
                out.add(h);
            }
        }
        out.add(Header.of(STAGE_HEADER, stage));
        if (error.reason() != null) {
            out.add(Header.of(REASON_HEADER, error.reason()));
        }
        out.add(Header.of(ERROR_HEADER, describe(error)));
        out.add(Header.of(SOURCE_HEADER, source.position()));
        out.add(Header.of(TIMESTAMP_HEADER, Long.toString(timestamp)));
        out.add(Header.of(PIPELINE_HEADER, pipeline));
        if (attempts > 1) {
            out.add(Header.of(ATTEMPTS_HEADER, Integer.toString(attempts)));
        }
        return out;
    }

    /**
     * The exception that explains the rejection, as {@code class: message}, bounded to {@value #MAX_ERROR_CHARS}
     * characters: the cause the stage reported when there is one (the user's exception, the broker's refusal),
     * else the record error itself.
     */
    public static String describe(RecordException error) {
        Throwable shown = error.getCause() != null ? error.getCause() : error;
        String message = shown.getMessage();
        if (shown == error) {
            message = error.detail();
        }
        String text = shown.getClass().getName() + (message == null ? "" : ": " + message);
        if (text.length() > MAX_ERROR_CHARS) {
            text = text.substring(0, MAX_ERROR_CHARS - 3) + "...";
        }
        return text;
    }
}
