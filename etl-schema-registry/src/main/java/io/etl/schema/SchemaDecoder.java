package io.etl.schema;

import io.etl.kafka.source.Decoder;

/**
 * A {@link Decoder} of payloads framed for a schema registry (magic byte {@code 0}, 4-byte schema id, payload),
 * made by {@link Avro}, {@link Protobuf} or {@link JsonSchema}. It reads the source's {@code schema_registry}
 * block when the source opens and looks each writer schema up once, by id; later records of that id make no
 * HTTP call.
 *
 * <p>A payload that is not framed (unknown magic byte), names an id the registry does not have, or does not
 * decode is a record error under the source's {@code on_error} policy. A registry that does not answer is not:
 * the source pauses and offers the record again until the registry answers, so nothing is skipped.
 *
 * @param <T> the decoded type
 */
public interface SchemaDecoder<T> extends Decoder<T> {

    /**
     * A decoder of whole records: {@code keys} decodes each record's key (a {@code null} key stays {@code null}),
     * this decoder its value. {@code keys} is used for keys from then on (its subject is {@code <topic>-key}).
     *
     * <pre>{@code
     * KafkaSource.from(config.source("payments")).with(Avro.decoder(reader).withKey(Avro.decoder()))
     * }</pre>
     */
    <K> Decoder<Keyed<K, T>> withKey(SchemaDecoder<K> keys);
}
