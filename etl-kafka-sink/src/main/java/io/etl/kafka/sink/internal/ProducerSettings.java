package io.etl.kafka.sink.internal;

import io.etl.core.config.Durations;
import io.etl.core.error.ConfigProblem;
import io.etl.kafka.common.internal.BootstrapAddresses;
import io.etl.kafka.common.internal.ClientConnection;
import io.etl.kafka.common.internal.ClientPassthrough;
import io.etl.kafka.common.internal.SecurityProperties;
import io.etl.kafka.sink.KafkaSinkConfig;
import io.etl.kafka.sink.TopicSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The producer properties of a Kafka sink, and the checks on its section: which passthrough keys are
 * denied and why, and the rules between typed fields.
 */
public final class ProducerSettings {

    /** Room above {@code max_message_bytes} for record and batch overhead in {@code max.request.size}. */
    static final int REQUEST_HEADROOM = 64 * 1024;
    /** Default {@code batch.size}: large batches let one produce request carry many messages. */
    static final int DEFAULT_BATCH_SIZE = 256 * 1024;
    /**
     * Default {@code max.block.ms}: {@code send} runs on the pipeline thread, which must never wait for buffer room
     * or metadata; a record the producer cannot take at once is offered again later by the sink's timer.
     */
    static final int DEFAULT_MAX_BLOCK_MS = 0;

    private static final int CLIENT_DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

    /** Passthrough keys the sink owns, with the reason shown to the user. Aliases included. */
    public static final Map<String, String> DENIED;

    static {
        Map<String, String> d = new LinkedHashMap<>();
        String brokers = "owned by the typed 'brokers' field";
        d.put("bootstrap.servers", brokers);
        d.put("metadata.broker.list", brokers + " (metadata.broker.list is librdkafka's alias)");
        String delivery = "owned by the typed 'delivery_timeout' field, which also bounds how long a batch waits for"
                + " its delivery reports";
        d.put("delivery.timeout.ms", delivery);
        d.put("message.timeout.ms", delivery + " (message.timeout.ms is librdkafka's alias)");
        String size = "derived from the typed 'max_message_bytes' field, so that every message passing the"
                + " encode-time guard also fits a produce request";
        d.put("max.request.size", size);
        d.put("message.max.bytes", size + " (message.max.bytes is librdkafka's name)");
        String acks = "forced to all: offsets are committed once a delivery report arrives, and a report under"
                + " weaker acks can be lost in a leader failover, turning at-least-once into at-most-once";
        d.put("acks", acks);
        d.put("request.required.acks", acks + " (request.required.acks is librdkafka's alias)");
        d.put(
                "enable.idempotence",
                "forced on: the producer's internal retries must neither duplicate nor reorder" + " messages");
        d.put(
                "transactional.id",
                "transactions are a pipeline mode, not a producer setting: set pipeline.delivery:"
                        + " exactly_once (and pipeline.transactional_id to choose the id)");
        String serializers = "the sink's encoder produces the bytes; serializers are fixed to ByteArraySerializer";
        d.put("key.serializer", serializers);
        d.put("value.serializer", serializers);
        d.put("compression.type", "owned by the typed 'compression' field");
        d.put("compression.codec", "owned by the typed 'compression' field (compression.codec is librdkafka's alias)");
        d.put("linger.ms", "owned by the typed 'producer_linger' field");
        d.put(
                "queue.buffering.max.ms",
                "owned by the typed 'producer_linger' field (queue.buffering.max.ms is"
                        + " librdkafka's name for linger.ms)");
        d.put(
                "statistics.interval.ms",
                "owned by the typed 'statistics_interval' field, which refreshes the"
                        + " etl_kafka_sink_* meters (librdkafka's name; the Java producer has no statistics callback)");
        d.put(
                "delivery.report.only.error",
                "the sink counts a delivery report for every message to acknowledge a"
                        + " batch; without the reports of successful sends no batch would ever complete (librdkafka's name;"
                        + " the Java producer always reports every send)");
        d.put(
                "enable.gapless.guarantee",
                "it makes any gap in a partition's sequence a fatal producer error,"
                        + " which conflicts with the sink's retry-and-replay of whole batches; the forced enable.idempotence"
                        + " already keeps order within a producer session (librdkafka's name)");
        DENIED = Collections.unmodifiableMap(d);
    }

    static final ClientPassthrough PASSTHROUGH = ClientPassthrough.producer(DENIED);

    private ProducerSettings() {}

    /** Every problem with a bound section; {@code path} is e.g. {@code sinks.eu.kafka}. */
    public static List<ConfigProblem> check(KafkaSinkConfig config, String path) {
        List<ConfigProblem> problems = new ArrayList<>();
        Set<String> typedKeys =
                config.security() == null ? Set.of() : SecurityProperties.clientPropertyKeys(config.security());
        problems.addAll(PASSTHROUGH.check(config.producer(), path + ".producer", typedKeys));
        if (config.security() != null) {
            problems.addAll(config.security()
                    .check(path + ".security", config.producer().keySet()));
        }
        if (config.schemaRegistry() != null) {
            problems.addAll(config.schemaRegistry().check(path + ".schema_registry"));
        }
        if (config.deliveryTimeout().compareTo(Duration.ofSeconds(1)) < 0) {
            problems.add(new ConfigProblem(path + ".delivery_timeout", "must be at least 1s"));
        }
        Duration linger = config.producerLinger();
        if (linger.isNegative() || linger.compareTo(config.deliveryTimeout()) >= 0) {
            problems.add(new ConfigProblem(
                    path + ".producer_linger",
                    "must be at least 0ms and below" + " delivery_timeout ("
                            + Durations.format(config.deliveryTimeout()) + ")"));
        }
        long max = config.maxMessageBytes().bytes();
        if (max < 1 || max > Integer.MAX_VALUE - 2L * REQUEST_HEADROOM) {
            problems.add(new ConfigProblem(path + ".max_message_bytes", "must be between 1B and 2GB"));
        }
        if (config.statisticsInterval().isNegative()) {
            problems.add(
                    new ConfigProblem(path + ".statistics_interval", "must not be negative (0s disables statistics)"));
        }
        if (config.startupTimeout().isNegative() || config.startupTimeout().isZero()) {
            problems.add(new ConfigProblem(path + ".startup_timeout", "must be positive"));
        }
        if (config.refusedTimeout().isNegative() || config.refusedTimeout().isZero()) {
            problems.add(new ConfigProblem(path + ".refused_timeout", "must be positive"));
        }
        problems.addAll(BootstrapAddresses.problems(config.brokers(), path + ".brokers"));
        config.annotations().forEach((key, value) -> {
            if (key == null || key.isBlank()) {
                problems.add(new ConfigProblem(path + ".annotations", "keys must not be blank"));
            } else if (value == null) {
                problems.add(new ConfigProblem(path + ".annotations." + key, "has no value"));
            }
        });
        problems.addAll(RouteSettings.check(config, path));
        Set<String> names = new HashSet<>();
        for (int i = 0; i < config.topics().size(); i++) {
            TopicSpec t = config.topics().get(i);
            if (t != null && t.name() != null && !names.add(t.name())) {
                problems.add(new ConfigProblem(
                        path + ".topics[" + i + "].name", "topic '" + t.name() + "' is listed twice"));
            }
        }
        return problems;
    }

    /** The {@code max.block.ms} of complete producer properties. */
    static long maxBlockMs(Map<String, Object> producer) {
        Object v = producer.get(ProducerConfig.MAX_BLOCK_MS_CONFIG);
        return v instanceof Number n
                ? n.longValue()
                : Long.parseLong(String.valueOf(v).trim());
    }

    /** The bootstrap and security properties, shared by the producer and the admin clients. */
    static Map<String, Object> connection(KafkaSinkConfig config, String path) {
        return ClientConnection.properties(config.brokers(), config.security(), config.producer(), path);
    }

    /**
     * The full producer configuration: our defaults, then the passthrough, then the forced settings.
     *
     * @param clientId e.g. {@code etl-<pipeline>-<sink>}
     */
    static Map<String, Object> producer(KafkaSinkConfig config, String path, String clientId) {
        Map<String, Object> props = new LinkedHashMap<>();
        int maxRequest = (int) config.maxMessageBytes().bytes() + REQUEST_HEADROOM;
        long lingerMs = config.producerLinger().toMillis();
        long deliveryMs = config.deliveryTimeout().toMillis();
        // defaults the passthrough may change
        props.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, Math.min(DEFAULT_BATCH_SIZE, maxRequest));
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, DEFAULT_MAX_BLOCK_MS);
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int)
                Math.min(CLIENT_DEFAULT_REQUEST_TIMEOUT_MS, deliveryMs - lingerMs));
        props.putAll(config.producer());
        props.putAll(connection(config, path));
        // forced
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) Math.min(Integer.MAX_VALUE, deliveryMs));
        props.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, maxRequest);
        props.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, config.compression().kafkaName());
        props.put(ProducerConfig.LINGER_MS_CONFIG, (int) lingerMs);
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        return props;
    }
}
