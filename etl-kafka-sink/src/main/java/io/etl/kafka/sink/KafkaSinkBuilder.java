package io.etl.kafka.sink;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Picks how values become messages and yields the {@link KafkaSink}. Obtained from {@link KafkaSink#from};
 * nothing connects until the pipeline opens the sink.
 *
 * <p>Every encoder checks the size guard, {@code max_message_bytes} and the topic's own {@code max.message.bytes}
 * (read when the sink opens): a larger message is a record error ({@code oversized}) that the sink's
 * {@code on_error} policy handles (skip by default), as is a message the broker refuses on its own account.
 */
public interface KafkaSinkBuilder {

    /**
     * Adds the header {@value KafkaSink#IDEMPOTENCY_KEY_HEADER} =
     * {@code <source topic>:<partition>:<offset>:<output index>} to every message: the same value on every
     * replay, so consumers can drop duplicates. Always on for the envelope encoder.
     */
    KafkaSinkBuilder idempotencyKeyHeader();

    /** The value bytes as they are; the source key and headers are kept. */
    KafkaSink<byte[]> bytes();

    /**
     * The value as JSON with the shared mapper ({@code java.time} values as ISO strings); the source key and
     * headers are kept.
     */
    KafkaSink<Object> json();

    /** The value as JSON written by your own mapper (its settings apply as they are); key and headers kept. */
    KafkaSink<Object> json(ObjectMapper mapper);

    /**
     * The value as JSON, keyed by {@code keyFn}: a String key is written as UTF-8, a byte[] as it is, null
     * as no key, anything else as JSON. Source headers are kept.
     */
    <T> KafkaSink<T> json(Function<? super T, ?> keyFn);

    /** As {@link #json(Function)}, with your own mapper for the value (and for a key that is neither text nor bytes). */
    <T> KafkaSink<T> json(Function<? super T, ?> keyFn, ObjectMapper mapper);

    /** The user builds each message: key, headers, value or tombstone. */
    <T> KafkaSink<T> with(MessageEncoder<? super T> encoder);

    /**
     * A JSON envelope {@code {operation, id, idempotencyKey, document, metadata{topic, partition, offset,
     * timestamp}, annotations}} keyed by the id; a delete is a tombstone whose context travels in the headers
     * {@code etl.operation}, {@code etl.source} and {@code etl.idempotency-key} (present on every message).
     * {@code annotations} holds the sink section's static {@code annotations} and is left out when there are
     * none. The idempotency key is {@code <source topic>:<partition>:<offset>:<output index>}: the same on every
     * replay of the same input through a deterministic chain.
     */
    <T> KafkaSink<Change<T>> envelope();

    /** The envelope for plain values: {@code idFn} gives the id, {@code isDelete} marks deletes. */
    <T> KafkaSink<T> envelope(Function<? super T, ?> idFn, Predicate<? super T> isDelete);
}
