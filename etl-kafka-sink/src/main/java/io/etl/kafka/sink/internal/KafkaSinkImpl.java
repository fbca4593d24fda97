package io.etl.kafka.sink.internal;

import io.etl.core.config.SinkPoolConfig;
import io.etl.core.sink.Encoder;
import io.etl.core.sink.Sink;
import io.etl.core.sink.SinkContext;
import io.etl.core.sink.SinkWriter;
import io.etl.kafka.sink.KafkaMessage;
import io.etl.kafka.sink.KafkaSinkConfig;
import io.etl.kafka.common.internal.ClusterUse;
import io.etl.kafka.common.internal.KafkaClusterUser;
import java.util.List;

/** A configured Kafka sink: name, pool settings, encoder; opens a {@link KafkaSinkWriter} at start. */
final class KafkaSinkImpl<T> implements Sink<T, KafkaMessage>, KafkaClusterUser {

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

    /** Writes its topic with its size guard; a topic listed under {@code topics} is created at start-up. */
    @Override
    public List<ClusterUse> clusterUses() {
        boolean created = config.topics().stream().anyMatch(t -> t.name().equals(config.topic()));
        ClusterUse use = ClusterUse.write(path, ProducerSettings.connection(config, path), config.topic(),
                config.maxMessageBytes().bytes()).createdAtStart(created);
        if (config.security() != null && config.security().principal().isPresent()) {
            use = use.withPrincipal(config.security().principal().get());
        }
        return List.of(use);
    }

    @Override
    public String toString() {
        return "KafkaSink[" + name + " -> " + config.topic() + "]";
    }
}
