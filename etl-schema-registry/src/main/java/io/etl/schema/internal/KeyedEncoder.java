package io.etl.schema.internal;

import io.etl.core.record.RecordMeta;
import io.etl.kafka.common.FormatContext;
import io.etl.kafka.sink.KafkaMessage;
import io.etl.kafka.sink.MessageEncoder;
import io.etl.schema.Keyed;
import io.etl.schema.SchemaEncoder;
import java.util.Objects;
import java.util.function.Function;

/** Encodes a key with one encoder and the value with another; the source record's headers are kept. */
public final class KeyedEncoder<T, K> implements MessageEncoder<T> {

    private final FramedEncoder<K, ?, ?> keys;
    private final Function<? super T, ? extends K> keyFn;
    private final FramedEncoder<T, ?, ?> values;

    private KeyedEncoder(
            FramedEncoder<K, ?, ?> keys, Function<? super T, ? extends K> keyFn, FramedEncoder<T, ?, ?> values) {
        this.keys = keys;
        this.keyFn = keyFn;
        this.values = values;
    }

    static <T, K> KeyedEncoder<T, K> withKey(
            FramedEncoder<T, ?, ?> values, Function<? super T, ? extends K> keyFn, SchemaEncoder<K> keys) {
        Objects.requireNonNull(keyFn, "keyFn");
        if (!(keys instanceof FramedEncoder<K, ?, ?> k)) {
            throw new IllegalArgumentException("a key encoder comes from Avro, Protobuf or JsonSchema; got " + keys);
        }
        if (k == values) {
            throw new IllegalArgumentException("the key encoder must be another instance than the value encoder");
        }
        k.encodeKeys();
        return new KeyedEncoder<>(k, keyFn, values);
    }

    /** The encoder of {@link Keyed} values. */
    public static <K, V> MessageEncoder<Keyed<K, V>> of(SchemaEncoder<K> keys, SchemaEncoder<V> values) {
        if (!(values instanceof FramedEncoder<V, ?, ?> v)) {
            throw new IllegalArgumentException(
                    "a value encoder comes from Avro, Protobuf or JsonSchema; got " + values);
        }
        KeyedEncoder<V, K> inner = withKey(v, unused -> null, keys);
        return new MessageEncoder<>() {
            @Override
            public KafkaMessage encode(Keyed<K, V> keyed, RecordMeta meta) {
                return new KafkaMessage(
                        inner.keys.serialize(keyed.key()), inner.values.serialize(keyed.value()), meta.headers(), null);
            }

            @Override
            public void open(FormatContext context) {
                inner.open(context);
            }

            @Override
            public String toString() {
                return "keyed(" + inner.keys + ", " + inner.values + ")";
            }
        };
    }

    @Override
    public KafkaMessage encode(T value, RecordMeta meta) {
        return new KafkaMessage(keys.serialize(keyFn.apply(value)), values.serialize(value), meta.headers(), null);
    }

    @Override
    public void open(FormatContext context) {
        keys.open(context);
        values.open(context);
    }

    @Override
    public String toString() {
        return "keyed(" + keys + ", " + values + ")";
    }
}
