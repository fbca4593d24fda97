package io.etl.kafka.sink.internal;

import io.etl.core.error.RecordException;
import io.etl.core.record.Header;
import io.etl.core.record.RecordMeta;
import io.etl.core.record.TraceContext;
import io.etl.core.sink.Encoder;
import io.etl.kafka.common.FormatContext;
import io.etl.kafka.sink.KafkaMessage;
import io.etl.kafka.sink.KafkaSink;
import java.util.Arrays;
import java.util.List;

/**
 * Wraps an encoding body with what every Kafka encoder does: the output's W3C trace context, the optional
 * idempotency-key header and the size guard: {@code max_message_bytes}, and the topic's own
 * {@code max.message.bytes} once the writer has read it ({@link #limitToTopic}), so a message the broker would
 * refuse is a record error at encode time instead of a refused write (the guard counts the trace headers too).
 * Routes messages to shards by their own key, so per-key order holds even when the encoder re-keys a record.
 *
 * @param <T> value type
 */
final class GuardedEncoder<T> implements Encoder<T, KafkaMessage> {

    /** Builds the message; a body that needs the idempotency key derives it with {@link #idempotencyKey}. */
    @FunctionalInterface
    interface Body<T> {
        KafkaMessage encode(T value, RecordMeta meta, int outputIndex);

        /** When the sink opens: the settings a format may need. */
        default void open(FormatContext context) {}
    }

    private final String topic;
    private final long maxBytes;
    private final boolean idempotencyHeader;
    private final Body<T> body;
    /**
     * The topic's max.message.bytes; set when a writer opens (by each loop of a pipeline with several), read on
     * the pipeline threads.
     */
    private volatile long topicLimit = Long.MAX_VALUE;

    GuardedEncoder(String topic, long maxBytes, boolean idempotencyHeader, Body<T> body) {
        this.topic = topic;
        this.maxBytes = maxBytes;
        this.idempotencyHeader = idempotencyHeader;
        this.body = body;
    }

    /** Hands the sink's format settings to the body; called when the sink opens, before its producer exists. */
    void open(FormatContext context) {
        body.open(context);
    }

    /** {@code <source topic>:<partition>:<offset>:<output index>}: the same on every replay. */
    static String idempotencyKey(RecordMeta meta, int outputIndex) {
        return meta.topic() + ':' + meta.partition() + ':' + meta.offset() + ':' + outputIndex;
    }

    @Override
    public KafkaMessage encode(T value, RecordMeta meta, int outputIndex) {
        return encode(value, meta, outputIndex, null);
    }

    /** Also puts the output's trace context on the message (unless the body set a traceparent of its own). */
    @Override
    public KafkaMessage encode(T value, RecordMeta meta, int outputIndex, TraceContext trace) {
        KafkaMessage message = body.encode(value, meta, outputIndex);
        if (message == null) {
            throw RecordException.of(RecordException.ENCODE, "the encoder returned no message", null);
        }
        if (message.topic() != null && !message.topic().equals(topic)) {
            throw RecordException.of(
                    RecordException.ENCODE,
                    "the encoder chose topic '" + message.topic() + "'"
                            + (topic == null ? "" : " but the sink writes topic '" + topic + "'")
                            + "; a route chooses topics with its topic function",
                    null);
        }
        if (trace != null) {
            List<Header> headers = trace.applyTo(message.headers());
            if (headers != message.headers()) {
                message =
                        new KafkaMessage(message.key(), message.value(), headers, message.partition(), message.topic());
            }
        }
        if (idempotencyHeader) {
            message =
                    message.withHeader(Header.of(KafkaSink.IDEMPOTENCY_KEY_HEADER, idempotencyKey(meta, outputIndex)));
        }
        return checked(message);
    }

    /** {@code message} when it passes the size guard, else an {@code oversized} record error. */
    KafkaMessage checked(KafkaMessage message) {
        long size = message.sizeInBytes();
        if (size > maxBytes) {
            throw RecordException.of(
                    RecordException.OVERSIZED,
                    "message of " + size + " bytes exceeds max_message_bytes " + maxBytes
                            + (topic == null ? "" : " for topic " + topic),
                    null);
        }
        return checkedAgainst(message, size, topic, topicLimit);
    }

    /**
     * {@code message} of {@code size} bytes when it fits a record batch of {@code limit} bytes (a topic's
     * {@code max.message.bytes}; {@link Long#MAX_VALUE} when unknown), else an {@code oversized} record error.
     */
    static KafkaMessage checkedAgainst(KafkaMessage message, long size, String topic, long limit) {
        if (limit != Long.MAX_VALUE && size + recordOverhead(message) > limit) {
            throw RecordException.of(
                    RecordException.OVERSIZED,
                    "message of " + size + " bytes (" + (size + recordOverhead(message))
                            + " as a record batch) exceeds max.message.bytes " + limit
                            + " of topic " + topic,
                    null);
        }
        return message;
    }

    /**
     * What a one-record batch adds to key, value and headers on the wire, at most: the batch header and the
     * record's varint lengths, attributes and deltas, and two varint lengths per header.
     */
    static long recordOverhead(KafkaMessage message) {
        return RECORD_BATCH_OVERHEAD + 10L * message.headers().size();
    }

    /** Batch header (61 bytes) plus the most a single record's own framing takes, rounded up. */
    static final int RECORD_BATCH_OVERHEAD = 100;

    /**
     * Also guards with the topic's {@code max.message.bytes}; returns true when that is the tighter limit. Called
     * when the writer opens, on the pipeline thread that also encodes.
     */
    boolean limitToTopic(long maxMessageBytes) {
        topicLimit = maxMessageBytes;
        return maxMessageBytes - RECORD_BATCH_OVERHEAD < maxBytes;
    }

    /** The configured {@code max_message_bytes}. */
    long maxBytes() {
        return maxBytes;
    }

    @Override
    public long sizeOf(KafkaMessage message) {
        return message.sizeInBytes();
    }

    @Override
    public int shardHash(KafkaMessage message, RecordMeta meta) {
        return message.key() == null ? meta.keyHash() : Arrays.hashCode(message.key());
    }
}
