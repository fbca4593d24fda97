package io.etl.kafka.sink.internal;

import io.etl.core.config.SinkPoolConfig;
import io.etl.core.error.ConfigException;
import io.etl.core.sink.Encoder;
import io.etl.core.sink.Sink;
import io.etl.core.sink.SinkContext;
import io.etl.core.sink.SinkWriter;
import io.etl.kafka.common.FormatContext;
import io.etl.kafka.common.internal.ClusterUse;
import io.etl.kafka.common.internal.KafkaClusterUser;
import io.etl.kafka.sink.KafkaMessage;
import io.etl.kafka.sink.KafkaSink;
import io.etl.kafka.sink.KafkaSinkConfig;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A configured Kafka sink: name, pool settings, encoder; opens its writer at start ({@link KafkaSinkOpener}) and
 * aligns the encoder's size guard with the topic's {@code max.message.bytes}.
 */
final class KafkaSinkImpl<T> implements KafkaSink<T>, KafkaClusterUser {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaSinkImpl.class);

    private final String name;
    private final String path;
    private final KafkaSinkConfig config;
    private final SinkPoolConfig pool;
    private final Encoder<T, KafkaMessage> encoder;
    private final GuardedEncoder<?> guard;

    KafkaSinkImpl(String name, String path, KafkaSinkConfig config, SinkPoolConfig pool, GuardedEncoder<T> encoder) {
        this(name, path, config, pool, encoder, encoder);
    }

    /** A sink whose encoder wraps {@code guard}, the guard whose limit follows the topic's. */
    KafkaSinkImpl(
            String name,
            String path,
            KafkaSinkConfig config,
            SinkPoolConfig pool,
            Encoder<T, KafkaMessage> encoder,
            GuardedEncoder<?> guard) {
        this.name = name;
        this.path = path;
        this.config = config;
        this.pool = pool;
        this.encoder = encoder;
        this.guard = guard;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public KafkaSinkConfig config() {
        return config;
    }

    @Override
    public SinkPoolConfig pool() {
        return pool;
    }

    @Override
    public Encoder<T, KafkaMessage> encoder() {
        return encoder;
    }

    /**
     * A route whose topics this section's {@code route} block allows.
     *
     * @throws ConfigException when the section names a topic instead (it is not a route's template)
     */
    @Override
    public Sink<T, KafkaMessage> route(String routeName, Function<? super T, String> destination) {
        if (config.route() == null) {
            throw ConfigException.of(
                    path,
                    "route '" + routeName + "' needs a template section: a route block (topics or topic_pattern)"
                            + " and no topic; this section writes topic '" + config.topic() + "'");
        }
        return new RoutedKafkaSink<>(routeName, path, config, pool, encoder, guard, destination);
    }

    @Override
    public SinkWriter<KafkaMessage> openWriter(SinkContext context) {
        if (config.topic() == null) {
            throw ConfigException.of(
                    path + ".topic",
                    "must not be blank: this section is a route's template (it has a route block); write to it"
                            + " with route(..), or give it a topic");
        }
        guard.open(new FormatContext(
                "sink '" + name + "'",
                path,
                List.of(config.topic()),
                config.schemaRegistry(),
                context.meterRegistry(),
                context.tags()));
        KafkaSinkOpener.Opened opened = KafkaSinkOpener.open(config, path, context);
        OptionalLong topicLimit = opened.topicMaxMessageBytes();
        if (topicLimit.isPresent() && guard.limitToTopic(topicLimit.getAsLong())) {
            LOG.warn(
                    "sink '{}': topic '{}' accepts record batches of at most {} bytes (max.message.bytes), less than"
                            + " max_message_bytes {}: larger messages are record errors at encode time (on_error: {})",
                    name,
                    config.topic(),
                    topicLimit.getAsLong(),
                    guard.maxBytes(),
                    errorPolicy().name().toLowerCase());
        }
        return opened.writer();
    }

    /** Writes its topic with its size guard; a topic listed under {@code topics} is created at start-up. */
    @Override
    public List<ClusterUse> clusterUses() {
        if (config.topic() == null) {
            return List.of(); // a template: the route built from it reports its topics
        }
        boolean created = config.topics().stream().anyMatch(t -> t.name().equals(config.topic()));
        ClusterUse use = ClusterUse.write(
                        path,
                        config.connectionProperties(path),
                        config.topic(),
                        config.maxMessageBytes().bytes())
                .createdAtStart(created);
        return List.of(use.withPrincipalOf(config.security()).withRefusedTimeout(config.refusedTimeout()));
    }

    @Override
    public String toString() {
        return "KafkaSink[" + name + " -> " + config.topic() + "]";
    }
}
