package io.etl.schema;

import io.etl.kafka.sink.MessageEncoder;
import java.util.function.Function;

/**
 * A {@link MessageEncoder} that writes values framed for a schema registry (magic byte {@code 0}, 4-byte schema
 * id, payload), made by {@link Avro}, {@link Protobuf} or {@link JsonSchema}. The source record's key and headers
 * are kept. It reads the sink's {@code schema_registry} block when the sink opens; each schema's id is looked up
 * (or, with {@code auto_register: true}, registered) on its first use and cached.
 *
 * <p>A schema the subject does not have while {@code auto_register} is false, or one the registry rejects as
 * incompatible, fails the start-up when the encoder knows its schema in advance, else it is a record error
 * naming the subject, under the sink's {@code on_error} policy. While the registry does not answer, the encoder
 * waits and asks again (the pipeline holds meanwhile): no record is skipped for it.
 *
 * @param <T> the value type
 */
public interface SchemaEncoder<T> extends MessageEncoder<T> {

    /**
     * An encoder that also writes a key: {@code keyFn} picks it from the value and {@code keys} encodes it
     * under the subject of the topic's keys.
     *
     * <pre>{@code
     * KafkaSink.from(config.sink("ledger")).with(Avro.encoder().withKey(v -> (GenericRecord) v.get("id"), Avro.encoder()))
     * }</pre>
     */
    <K> MessageEncoder<T> withKey(Function<? super T, ? extends K> keyFn, SchemaEncoder<K> keys);
}
