package io.etl.kafka.sink.internal;

import io.etl.core.config.SinkPoolConfig;
import io.etl.core.error.RetryLetter;
import io.etl.core.record.RecordMeta;
import io.etl.core.record.TraceContext;
import io.etl.core.sink.Encoder;
import io.etl.core.sink.Sink;
import io.etl.core.sink.SinkContext;
import io.etl.core.sink.SinkWriter;
import io.etl.kafka.sink.KafkaMessage;
import io.etl.kafka.sink.KafkaSinkConfig;

/**
 * The sink of the {@code retry} section: writes each {@link RetryLetter}'s key, value and headers, as the record was
 * read plus its {@code etl.retry.*} headers, to the letter's retry topic, through the writer of the run's delivery
 * mode. The retry topics exist before anything is read (the source that reads them makes sure of it), so they are not
 * looked at again here; the size guard is the section's {@code max_message_bytes}.
 */
final class RetryTopicSink implements Sink<RetryLetter, KafkaMessage> {

    private final String name;
    private final String path;
    private final KafkaSinkConfig config;
    private final SinkPoolConfig pool;
    private final GuardedEncoder<RetryLetter> guard;

    RetryTopicSink(String name, String path, KafkaSinkConfig config, SinkPoolConfig pool) {
        this.name = name;
        this.path = path;
        this.config = config;
        this.pool = pool;
        this.guard = new GuardedEncoder<>(
                null,
                config.maxMessageBytes().bytes(),
                false,
                (letter, meta, index) -> new KafkaMessage(letter.key(), letter.value(), letter.headers(), null));
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public SinkPoolConfig pool() {
        return pool;
    }

    @Override
    public Encoder<RetryLetter, KafkaMessage> encoder() {
        return new Encoder<>() {
            @Override
            public KafkaMessage encode(RetryLetter letter, RecordMeta meta, int outputIndex) {
                return guard.encode(letter, meta, outputIndex).withTopic(letter.topic());
            }

            @Override
            public KafkaMessage encode(RetryLetter letter, RecordMeta meta, int outputIndex, TraceContext trace) {
                // the record keeps the trace headers it was read with
                return encode(letter, meta, outputIndex);
            }

            @Override
            public long sizeOf(KafkaMessage message) {
                return guard.sizeOf(message);
            }

            @Override
            public int shardHash(KafkaMessage message, RecordMeta meta) {
                return guard.shardHash(message, meta);
            }
        };
    }

    @Override
    public SinkWriter<KafkaMessage> openWriter(SinkContext context) {
        return KafkaSinkOpener.openRouted(config, path, context);
    }

    @Override
    public String toString() {
        return "KafkaRetryTopics[" + config.brokers() + "]";
    }
}
