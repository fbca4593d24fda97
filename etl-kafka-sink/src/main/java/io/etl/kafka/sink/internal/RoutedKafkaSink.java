package io.etl.kafka.sink.internal;

import io.etl.core.config.SinkPoolConfig;
import io.etl.core.sink.Encoder;
import io.etl.core.sink.Sink;
import io.etl.core.sink.SinkContext;
import io.etl.core.sink.SinkWriter;
import io.etl.kafka.common.FormatContext;
import io.etl.kafka.common.internal.ClusterUse;
import io.etl.kafka.common.internal.KafkaClusterUser;
import io.etl.kafka.sink.KafkaMessage;
import io.etl.kafka.sink.KafkaSinkConfig;
import java.util.List;
import java.util.function.Function;

/**
 * A route built from a Kafka sink template: one pool, whose messages each name their topic, and one producer shared
 * with the run's other Kafka sinks of the same settings (in exactly-once mode, the run's transaction). Topics open on
 * first use ({@link RoutedTopics}); the writer is the run's delivery mode's, as for any Kafka sink.
 *
 * @param <T> value type
 */
final class RoutedKafkaSink<T> implements Sink<T, KafkaMessage>, KafkaClusterUser {

    private final String name;
    private final String path;
    private final KafkaSinkConfig config;
    private final SinkPoolConfig pool;
    private final GuardedEncoder<?> guard;
    private final RoutedTopics topics;
    private final RouteEncoder<T> encoder;

    RoutedKafkaSink(
            String name,
            String path,
            KafkaSinkConfig config,
            SinkPoolConfig pool,
            Encoder<T, KafkaMessage> template,
            GuardedEncoder<?> guard,
            Function<? super T, String> destination) {
        this.name = name;
        this.path = path;
        this.config = config;
        this.pool = pool;
        this.guard = guard;
        this.topics = new RoutedTopics(name, path, config.route(), config.startupTimeout(), System::nanoTime);
        this.encoder = new RouteEncoder<>(destination, template, topics);
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
        guard.open(new FormatContext(
                "sink '" + name + "'",
                path,
                config.route().topics(),
                config.schemaRegistry(),
                context.meterRegistry(),
                context.tags()));
        SinkWriter<KafkaMessage> writer = KafkaSinkOpener.openRouted(config, path, context);
        topics.open(config.connectionProperties(path), context.meterRegistry(), context.tags());
        return new RoutedWriter(writer, topics);
    }

    /** Writes each listed topic; a route by pattern names no topic in advance, so only what it lists is checked. */
    @Override
    public List<ClusterUse> clusterUses() {
        return config.route().topics().stream()
                .map(topic -> ClusterUse.write(
                                path,
                                config.connectionProperties(path),
                                topic,
                                config.maxMessageBytes().bytes())
                        .createdAtStart(config.route().create() != null)
                        .withPrincipalOf(config.security()))
                .toList();
    }

    @Override
    public String toString() {
        return "KafkaRoute[" + name + " -> " + Destinations.label(config) + "]";
    }
}
