package io.etl.schema.internal;

import io.etl.core.record.RecordMeta;
import io.etl.kafka.common.FormatContext;
import io.etl.kafka.source.Decoder;
import io.etl.schema.Keyed;
import io.etl.schema.SchemaDecoder;

/** Decodes a record's key with one decoder and its value with another. */
final class KeyedDecoder<K, V> implements Decoder<Keyed<K, V>> {

    private final FramedDecoder<K, ?> keys;
    private final FramedDecoder<V, ?> values;

    private KeyedDecoder(FramedDecoder<K, ?> keys, FramedDecoder<V, ?> values) {
        this.keys = keys;
        this.values = values;
    }

    static <K, V> KeyedDecoder<K, V> of(SchemaDecoder<K> keys, FramedDecoder<V, ?> values) {
        if (!(keys instanceof FramedDecoder<K, ?> k)) {
            throw new IllegalArgumentException("a key decoder comes from Avro, Protobuf or JsonSchema; got " + keys);
        }
        if (k == values) {
            throw new IllegalArgumentException("the key decoder must be another instance than the value decoder");
        }
        k.decodeKeys();
        return new KeyedDecoder<>(k, values);
    }

    @Override
    public Keyed<K, V> decode(byte[] payload, RecordMeta meta) throws Exception {
        return new Keyed<>(keys.decode(payload, meta), values.decode(payload, meta));
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
