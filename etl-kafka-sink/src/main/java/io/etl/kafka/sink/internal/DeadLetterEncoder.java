package io.etl.kafka.sink.internal;

import io.etl.core.error.DeadLetter;
import io.etl.core.error.RecordException;
import io.etl.core.record.Header;
import io.etl.core.record.RecordMeta;
import io.etl.core.sink.Encoder;
import io.etl.kafka.sink.KafkaMessage;

/**
 * Writes a {@link DeadLetter} as the source record was read: its key, value bytes and headers, plus the
 * {@code etl.dlq.*} headers. A dead letter too large for the dead-letter topic is written without its value
 * and with {@value #VALUE_DROPPED_HEADER} giving the value's size, so the record is still reported (its
 * {@code etl.dlq.source} position says where to find it) rather than lost or stopping the pipeline.
 */
final class DeadLetterEncoder implements Encoder<DeadLetter, KafkaMessage> {

    /** Set, to the original value's size in bytes, when the value did not fit the dead-letter topic. */
    static final String VALUE_DROPPED_HEADER = "etl.dlq.value.dropped";

    private final GuardedEncoder<DeadLetter> guard;

    private DeadLetterEncoder(GuardedEncoder<DeadLetter> guard) {
        this.guard = guard;
    }

    /** The encoder and the size guard it wraps, for topic {@code topic} and {@code max_message_bytes}. */
    static DeadLetterEncoder create(String topic, long maxBytes) {
        return new DeadLetterEncoder(new GuardedEncoder<>(
                topic,
                maxBytes,
                false,
                (letter, meta, index) -> new KafkaMessage(letter.key(), letter.value(), letter.headers(), null)));
    }

    GuardedEncoder<DeadLetter> guard() {
        return guard;
    }

    @Override
    public KafkaMessage encode(DeadLetter letter, RecordMeta meta, int outputIndex) {
        try {
            return guard.encode(letter, meta, outputIndex);
        } catch (RecordException e) {
            if (!RecordException.OVERSIZED.equals(e.reason()) || letter.value() == null) {
                throw e;
            }
            KafkaMessage withoutValue = new KafkaMessage(letter.key(), new byte[0], letter.headers(), null)
                    .withHeader(Header.of(VALUE_DROPPED_HEADER, Integer.toString(letter.value().length)));
            // still too large (huge key or headers): the guard's record error fails the pipeline, never a silent drop
            return guard.checked(withoutValue);
        }
    }

    @Override
    public long sizeOf(KafkaMessage message) {
        return guard.sizeOf(message);
    }

    @Override
    public int shardHash(KafkaMessage message, RecordMeta meta) {
        return guard.shardHash(message, meta);
    }
}
