package io.etl.kafka.sink.internal;

import io.etl.core.config.SinkPoolConfig;
import io.etl.core.sink.Encoder;
import io.etl.core.sink.Sink;
import io.etl.core.sink.SinkContext;
import io.etl.core.sink.SinkWriter;
import io.etl.kafka.sink.KafkaMessage;
import io.etl.kafka.sink.KafkaSinkConfig;

/** A configured Kafka sink: name, pool settings, encoder; opens a {@link KafkaSinkWriter} at start. */
final class KafkaSinkImpl<T> implements Sink<T, KafkaMessage> {

    private final String name;
    private final String path;
    private final KafkaSinkConfig config;
    private final SinkPoolConfig pool;
    private final Encoder<T, KafkaMessage> encoder;

    KafkaSinkImpl(String name, String path, KafkaSinkConfig config, SinkPoolConfig pool, Encoder<T, KafkaMessage> encoder) {
        this.name = name;
        this.path = path;
        this.config = config;
        this.pool = pool;
        this.encoder = encoder;
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
    public Encoder<T, KafkaMessage> encoder() {
        return encoder;
    }

    @Override
    public SinkWriter<KafkaMessage> openWriter(SinkContext context) {
        return KafkaSinkWriter.open(config, path, context);
    }

    @Override
    public String toString() {
        return "KafkaSink[" + name + " -> " + config.topic() + "]";
    }
}
