package io.etl.kafka.sink;

import io.etl.core.record.RecordMeta;
import io.etl.kafka.common.FormatContext;

/**
 * Turns a value into a {@link KafkaMessage} with full control over key, headers, value or tombstone.
 * Runs on the pipeline thread; a thrown {@link RuntimeException} is a record error handled by the sink's
 * {@code on_error} policy. The sink still applies the {@code max_message_bytes} guard, the input's W3C trace
 * context ({@code traceparent}, {@code tracestate}: added when the message has no {@code traceparent}, kept
 * when the encoder set one of its own; see {@code pipeline.tracing}) and, when asked, the idempotency-key
 * header.
 *
 * <pre>{@code
 * MessageEncoder<Customer> encoder = (c, meta) -> c.deleted()
 *         ? KafkaMessage.builder().key(c.id()).tombstone().build()
 *         : KafkaMessage.builder().key(c.id()).header("region", c.region()).value(c.toJson()).build();
 * }</pre>
 *
 * @param <T> value type
 */
@FunctionalInterface
public interface MessageEncoder<T> {

    /**
     * @param value the value reaching the sink
     * @param meta  the source record's position, key and headers
     * @return the message to write, never null
     */
    KafkaMessage encode(T value, RecordMeta meta);

    /**
     * Called once when the sink opens, before its producer is created, with the sink's settings that concern
     * formats (such as its {@code schema_registry} block) and its topic. An encoder that can tell already that
     * it will fail (a schema the registry does not have) throws a {@link io.etl.core.error.ConfigException}
     * naming the key, so the pipeline does not start. The default does nothing.
     */
    default void open(FormatContext context) {}
}
