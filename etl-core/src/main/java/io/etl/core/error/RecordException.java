package io.etl.core.error;

import io.etl.core.record.RecordMeta;

/**
 * One record could not be processed: it failed to decode, an operator threw, or its encoded message is
 * too large. Carries the record's position and the operator (stage) that failed; the stage's
 * {@link ErrorPolicy} decides whether it is skipped, dead-lettered, or stops the pipeline.
 */
public final class RecordException extends EtlException {

    /** Reason tag for a message above the sink's {@code max_message_bytes}. */
    public static final String OVERSIZED = "oversized";
    /** Reason tag for a record the source could not decode. */
    public static final String DECODE = "decode";
    /** Reason tag for an exception thrown by a user operator. */
    public static final String OPERATOR = "operator";
    /** Reason tag for an encoder failure other than size. */
    public static final String ENCODE = "encode";
    /** Reason tag for a message the destination refused on its own account (for example too large for the topic). */
    public static final String PRODUCE = "produce";
    /** An asynchronous stage's call took longer than the stage's {@code timeout} on every attempt. */
    public static final String TIMEOUT = "timeout";

    /**
     * Reason tag for a value a route cannot write: its topic function failed, or named a topic the route does not
     * allow, cannot open, or would exceed the route's bound on open topics with.
     */
    public static final String ROUTE = "route";

    private final String reason;
    private final String topic;
    private final int partition;
    private final long offset;
    private final String operator;
    private final String detail;

    private RecordException(
            String reason, String detail, Throwable cause, String topic, int partition, long offset, String operator) {
        super(render(reason, detail, topic, partition, offset, operator), cause);
        this.reason = reason;
        this.detail = detail;
        this.topic = topic;
        this.partition = partition;
        this.offset = offset;
        this.operator = operator;
    }

    /** A record error whose position is filled in later by the pipeline. */
    public static RecordException of(String reason, String detail, Throwable cause) {
        return new RecordException(reason, detail, cause, null, -1, -1L, null);
    }

    /** A record error at a known position. */
    public static RecordException at(RecordMeta meta, String operator, String reason, String detail, Throwable cause) {
        return new RecordException(reason, detail, cause, meta.topic(), meta.partition(), meta.offset(), operator);
    }

    /** The same error located at {@code meta} in stage {@code operator}. */
    public RecordException locatedAt(RecordMeta meta, String operator) {
        return new RecordException(reason, detail, getCause(), meta.topic(), meta.partition(), meta.offset(), operator);
    }

    /**
     * Short tag: {@link #OVERSIZED}, {@link #DECODE}, {@link #OPERATOR}, {@link #ENCODE}, {@link #PRODUCE},
     * {@link #ROUTE} or a connector's own.
     */
    public String reason() {
        return reason;
    }

    /** The description without the position. */
    public String detail() {
        return detail;
    }

    public String topic() {
        return topic;
    }

    public int partition() {
        return partition;
    }

    public long offset() {
        return offset;
    }

    /** Name of the stage (operator or sink) where the record failed, or null when unknown. */
    public String operator() {
        return operator;
    }

    private static String render(
            String reason, String detail, String topic, int partition, long offset, String operator) {
        StringBuilder sb = new StringBuilder();
        sb.append(reason).append(" error");
        if (topic != null) {
            sb.append(" at ")
                    .append(topic)
                    .append('-')
                    .append(partition)
                    .append('@')
                    .append(offset);
        }
        if (operator != null) {
            sb.append(" in '").append(operator).append('\'');
        }
        return sb.append(": ").append(detail).toString();
    }
}
