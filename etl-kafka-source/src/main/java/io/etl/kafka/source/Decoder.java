package io.etl.kafka.source;

import io.etl.core.record.RecordMeta;
import io.etl.kafka.common.FormatContext;

/**
 * Turns the payload bytes of one Kafka record into the value the pipeline works on. Called on the
 * pipeline thread, once per record, in partition order; an implementation needs no locking but should
 * not block.
 *
 * <pre>{@code
 * Decoder<Integer> length = (payload, meta) -> payload == null ? 0 : payload.length;
 * Source<Integer> sizes = KafkaSource.from(config.source("in")).with(length);
 * }</pre>
 *
 * <p>Throwing marks the record as undecodable: the pipeline applies the source's {@code on_error}
 * policy ({@code skip}, {@code fail} or {@code dead_letter}) and names the record's topic, partition and
 * offset in the error. Throwing {@link io.etl.core.error.RetryableException} says instead that the record
 * cannot be decoded <em>yet</em> (a schema registry that does not answer): the source neither skips nor
 * dead-letters it, but pauses its partitions and offers the same record again after a capped backoff, until it
 * decodes or fails for good.
 *
 * @param <T> the decoded type
 */
@FunctionalInterface
public interface Decoder<T> {

    /**
     * Decodes one payload.
     *
     * @param payload the record value, {@code null} for a tombstone
     * @param meta    where the record came from, with its key and headers
     * @return the value handed to the operator chain
     * @throws Exception when the payload cannot be decoded
     */
    T decode(byte[] payload, RecordMeta meta) throws Exception;

    /**
     * Called once when the source opens, before its consumer is created, with the source's settings that
     * concern formats (such as its {@code schema_registry} block). A decoder that cannot work with them throws a
     * {@link io.etl.core.error.ConfigException} naming the key. The default does nothing.
     */
    default void open(FormatContext context) {}
}
