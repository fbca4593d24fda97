package io.etl.kafka.sink.internal;

import io.etl.core.sink.SinkContext;
import io.etl.core.sink.SinkWriter;
import io.etl.kafka.common.internal.ClientPrincipal;
import io.etl.kafka.common.internal.ClientProperties;
import io.etl.kafka.common.internal.ConnectivityCheck;
import io.etl.kafka.common.internal.TopicCreator;
import io.etl.kafka.sink.KafkaMessage;
import io.etl.kafka.sink.KafkaSinkConfig;
import java.util.Map;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens a Kafka sink: checks the brokers, creates the topics the section lists, checks the sink's topic and reads
 * its {@code max.message.bytes}, all bounded by {@code startup_timeout}, then hands over to the writer of the run's
 * delivery mode: {@link AtLeastOnceKafkaWriter}, or {@link TransactionalKafkaWriter} for exactly once.
 */
final class KafkaSinkOpener {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaSinkOpener.class);

    private KafkaSinkOpener() {}

    /**
     * An opened sink.
     *
     * @param writer               the writer of the run's delivery mode
     * @param topicMaxMessageBytes the topic's effective {@code max.message.bytes}; empty when it could not be read
     */
    record Opened(SinkWriter<KafkaMessage> writer, OptionalLong topicMaxMessageBytes) {}

    /**
     * @param path the sink section's path, e.g. {@code sinks.eu.kafka}
     * @throws io.etl.core.error.ConfigException naming the brokers, topic, principal or passthrough key at fault
     */
    static Opened open(KafkaSinkConfig config, String path, SinkContext context) {
        Map<String, Object> connection = config.connectionProperties(path);
        String principal = ClientPrincipal.of(config.security(), config.producer());
        LOG.info("sink '{}': writing topic '{}' at {}", context.sink(), config.topic(), config.brokers());
        if (!config.topics().isEmpty()) {
            check(connection, path, config, context, principal).run();
            TopicCreator.create(
                    connection,
                    TopicSpecs.newTopics(config.topics()),
                    TopicSpecs.paths(config.topics(), path),
                    config.startupTimeout(),
                    path + ".topics");
        }
        ConnectivityCheck.Outcome checked = check(connection, path, config, context, principal)
                .topic(config.topic())
                .readMaxMessageBytes()
                .run();
        // the producer's batches fit the topic, whose limit the check has just read
        Map<String, Object> producer =
                ProducerSettings.producer(config, path, clientId(context), checked.topicMaxMessageBytes());
        LOG.debug("sink '{}': producer properties {}", context.sink(), ClientProperties.redacted(producer));
        return new Opened(
                writer(config, path, context, connection, producer, principal), checked.topicMaxMessageBytes());
    }

    private static String clientId(SinkContext context) {
        return "etl-" + context.pipeline() + "-" + context.sink();
    }

    /**
     * Opens the writer of a sink without a topic of its own (a route, the retry writer), whose messages each name
     * theirs: checks the brokers and creates the topics the section lists; each message's topic is looked at
     * elsewhere before its first message is encoded.
     *
     * @throws io.etl.core.error.ConfigException naming the brokers, principal or passthrough key at fault
     */
    static SinkWriter<KafkaMessage> openRouted(KafkaSinkConfig config, String path, SinkContext context) {
        Map<String, Object> connection = config.connectionProperties(path);
        Map<String, Object> producer = ProducerSettings.producer(config, path, clientId(context));
        String principal = ClientPrincipal.of(config.security(), config.producer());
        LOG.info("sink '{}': writing topics {} at {}", context.sink(), Destinations.label(config), config.brokers());
        LOG.debug("sink '{}': producer properties {}", context.sink(), ClientProperties.redacted(producer));
        check(connection, path, config, context, principal).run();
        if (!config.topics().isEmpty()) {
            TopicCreator.create(
                    connection,
                    TopicSpecs.newTopics(config.topics()),
                    TopicSpecs.paths(config.topics(), path),
                    config.startupTimeout(),
                    path + ".topics");
        }
        return writer(config, path, context, connection, producer, principal);
    }

    /** The writer of the run's delivery mode. */
    private static SinkWriter<KafkaMessage> writer(
            KafkaSinkConfig config,
            String path,
            SinkContext context,
            Map<String, Object> connection,
            Map<String, Object> producer,
            String principal) {
        return context.run().exactlyOnce()
                ? TransactionalKafkaWriter.join(config, path, context, producer)
                : AtLeastOnceKafkaWriter.open(config, path, context, connection, producer, principal);
    }

    /** The start-up check of these brokers, shared with the other connectors of the run. */
    private static ConnectivityCheck check(
            Map<String, Object> connection,
            String path,
            KafkaSinkConfig config,
            SinkContext context,
            String principal) {
        return ConnectivityCheck.of(connection, path)
                .timeout(config.startupTimeout())
                .refusedTimeout(config.refusedTimeout())
                .principal(principal)
                .sharedWithin(context.runId());
    }
}
