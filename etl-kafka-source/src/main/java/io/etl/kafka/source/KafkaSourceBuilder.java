package io.etl.kafka.source;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Chooses how a {@link KafkaSource} decodes record payloads. Keys and headers are never decoded: they
 * stay bytes in {@link io.etl.core.record.RecordMeta}.
 *
 * <pre>{@code
 * KafkaSource<byte[]>   raw    = KafkaSource.from(config.source("in")).bytes();
 * KafkaSource<Order>    orders = KafkaSource.from(config.source("orders")).json(Order.class);
 * KafkaSource<JsonNode> tree   = KafkaSource.from(config.source("events")).jsonTree();
 * }</pre>
 *
 * <p>The JSON decoders ignore JSON properties the target class does not have (payloads evolve, and
 * a new producer field should not stop a pipeline), accept {@code java.time} types, and treat a tombstone
 * (a {@code null} payload) as a decode failure. {@link #bytes()} and {@link #string()} pass tombstones on as
 * {@code null} values.
 */
public interface KafkaSourceBuilder {

    /** Payloads as they are (no copy); a tombstone is a {@code null} value. */
    KafkaSource<byte[]> bytes();

    /** Payloads decoded as UTF-8 text; a tombstone is a {@code null} value. */
    KafkaSource<String> string();

    /** Payloads read as JSON into {@code type} with the shared, lenient mapper described above. */
    <T> KafkaSource<T> json(Class<T> type);

    /** Payloads read as JSON into {@code type} with your own mapper (its settings apply as they are). */
    <T> KafkaSource<T> json(Class<T> type, ObjectMapper mapper);

    /** Payloads read as JSON trees. */
    KafkaSource<JsonNode> jsonTree();

    /** Payloads decoded by {@code decoder}; an exception it throws is a decode failure. */
    <T> KafkaSource<T> with(Decoder<T> decoder);
}
