package io.etl.schema;

import io.etl.kafka.sink.MessageEncoder;
import io.etl.schema.internal.KeyedEncoder;

/**
 * A record's key and value, both decoded ({@link SchemaDecoder#withKey}) or both to encode
 * ({@link #encoder}).
 *
 * @param key   the key, null when the record has none
 * @param value the value
 * @param <K>   key type
 * @param <V>   value type
 */
public record Keyed<K, V>(K key, V value) {

    /**
     * An encoder of keyed values: {@code keys} writes the key under the subject of the topic's keys,
     * {@code values} the value; the source record's headers are kept.
     */
    public static <K, V> MessageEncoder<Keyed<K, V>> encoder(SchemaEncoder<K> keys, SchemaEncoder<V> values) {
        return KeyedEncoder.of(keys, values);
    }
}
