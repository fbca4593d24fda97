package io.etl.kafka.sink.internal;

import io.etl.core.config.DataSize;
import io.etl.core.config.Durations;
import io.etl.core.error.ConfigProblem;
import io.etl.kafka.common.KafkaSecurityConfig;
import io.etl.kafka.common.internal.BootstrapAddresses;
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
import java.util.OptionalLong;
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

    /**
     * Every problem of a section at {@code path} ({@code sinks.eu.kafka}, {@code dead_letter.kafka},
     * {@code retry.kafka}), each at {@code path} plus its key: its own {@link #rules} and those of its place
     * ({@code topic} or {@code route} in a sink entry, a topic in the dead-letter section, neither in the retry
     * section). The loader checks a bound section with it, and a sink checks its section when it is made.
     */
    public static List<ConfigProblem> check(KafkaSinkConfig config, String path) {
        List<ConfigProblem> problems = keyRules(config, path);
        problems.addAll(RouteSettings.check(config, path));
        return problems;
    }

    /**
     * The problems of a section wherever it sits, each at {@code path} plus its key ({@code ""} for the record's
     * own check, which its constructor runs).
     */
    public static List<ConfigProblem> rules(KafkaSinkConfig config, String path) {
        List<ConfigProblem> problems = keyRules(config, path);
        problems.addAll(RouteSettings.own(config, path));
        return problems;
    }

    private static List<ConfigProblem> keyRules(KafkaSinkConfig config, String path) {
        List<ConfigProblem> problems = new ArrayList<>(passthrough(config.producer(), config.security(), path));
        if (config.security() != null) {
            problems.addAll(config.security()
                    .check(path + ".security", config.producer().keySet()));
        }
        if (config.schemaRegistry() != null) {
            problems.addAll(config.schemaRegistry().check(path + ".schema_registry"));
        }
        problems.addAll(deliveryTimeout(config.deliveryTimeout(), path));
        problems.addAll(producerLinger(config.producerLinger(), config.deliveryTimeout(), path));
        problems.addAll(maxMessageBytes(config.maxMessageBytes(), path));
        problems.addAll(statisticsInterval(config.statisticsInterval(), path));
        problems.addAll(startupTimeout(config.startupTimeout(), path));
        problems.addAll(refusedTimeout(config.refusedTimeout(), path));
        problems.addAll(BootstrapAddresses.problems(config.brokers(), path + ".brokers"));
        problems.addAll(annotations(config.annotations(), path));
        problems.addAll(topics(config.topics(), path));
        return problems;
    }

    /** The {@code producer} passthrough: known properties only, none the sink owns or {@code security} sets. */
    public static List<ConfigProblem> passthrough(
            Map<String, String> producer, KafkaSecurityConfig security, String path) {
        Set<String> typedKeys = security == null ? Set.of() : SecurityProperties.clientPropertyKeys(security);
        return PASSTHROUGH.check(producer, path + ".producer", typedKeys);
    }

    /** {@code topic}: not blank when set. */
    public static List<ConfigProblem> topic(String value, String path) {
        return value != null && value.isBlank()
                ? List.of(new ConfigProblem(path + ".topic", "must not be blank"))
                : List.of();
    }

    /** {@code delivery_timeout}: at least 1s. */
    public static List<ConfigProblem> deliveryTimeout(Duration value, String path) {
        return value.compareTo(Duration.ofSeconds(1)) < 0
                ? List.of(new ConfigProblem(path + ".delivery_timeout", "must be at least 1s"))
                : List.of();
    }

    /** {@code producer_linger}: zero or more, and below {@code delivery_timeout}. */
    public static List<ConfigProblem> producerLinger(Duration value, Duration deliveryTimeout, String path) {
        return value.isNegative() || value.compareTo(deliveryTimeout) >= 0
                ? List.of(new ConfigProblem(
                        path + ".producer_linger",
                        "must be at least 0ms and below delivery_timeout (" + Durations.format(deliveryTimeout) + ")"))
                : List.of();
    }

    /** {@code max_message_bytes}: 1B to 2GB, less room for a request's framing. */
    public static List<ConfigProblem> maxMessageBytes(DataSize value, String path) {
        long max = value.bytes();
        return max < 1 || max > Integer.MAX_VALUE - 2L * REQUEST_HEADROOM
                ? List.of(new ConfigProblem(path + ".max_message_bytes", "must be between 1B and 2GB"))
                : List.of();
    }

    /** {@code statistics_interval}: zero (none) or more. */
    public static List<ConfigProblem> statisticsInterval(Duration value, String path) {
        return value.isNegative()
                ? List.of(new ConfigProblem(
                        path + ".statistics_interval", "must not be negative (0s disables statistics)"))
                : List.of();
    }

    /** {@code refused_timeout}: above zero. */
    public static List<ConfigProblem> refusedTimeout(Duration value, String path) {
        return value.isNegative() || value.isZero()
                ? List.of(new ConfigProblem(path + ".refused_timeout", "must be positive"))
                : List.of();
    }

    /** {@code startup_timeout}: above zero. */
    public static List<ConfigProblem> startupTimeout(Duration value, String path) {
        return value.isNegative() || value.isZero()
                ? List.of(new ConfigProblem(path + ".startup_timeout", "must be positive"))
                : List.of();
    }

    /** {@code annotations}: no blank key, no missing value. */
    public static List<ConfigProblem> annotations(Map<String, String> value, String path) {
        List<ConfigProblem> problems = new ArrayList<>(0);
        value.forEach((key, v) -> {
            if (key == null || key.isBlank()) {
                problems.add(new ConfigProblem(path + ".annotations", "keys must not be blank"));
            } else if (v == null) {
                problems.add(new ConfigProblem(path + ".annotations." + key, "has no value"));
            }
        });
        return problems;
    }

    /** {@code topics}: no topic listed twice. */
    public static List<ConfigProblem> topics(List<TopicSpec> value, String path) {
        List<ConfigProblem> problems = new ArrayList<>(0);
        Set<String> names = new HashSet<>();
        for (int i = 0; i < value.size(); i++) {
            TopicSpec t = value.get(i);
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

    /**
     * The full producer configuration: our defaults, then the passthrough, then the forced settings.
     *
     * @param clientId e.g. {@code etl-<pipeline>-<sink>}
     */
    static Map<String, Object> producer(KafkaSinkConfig config, String path, String clientId) {
        return producer(config, path, clientId, OptionalLong.empty());
    }

    /**
     * {@link #producer(KafkaSinkConfig, String, String)} for a topic that accepts record batches of at most {@code
     * topicMaxMessageBytes}: unless the passthrough sets {@code batch.size}, the producer's batches are kept within
     * it, since a larger one comes back from the broker as too large for the producer to split and send again, which
     * delays every message behind it.
     */
    static Map<String, Object> producer(
            KafkaSinkConfig config, String path, String clientId, OptionalLong topicMaxMessageBytes) {
        Map<String, Object> props = new LinkedHashMap<>();
        int maxRequest = (int) config.maxMessageBytes().bytes() + REQUEST_HEADROOM;
        long lingerMs = config.producerLinger().toMillis();
        long deliveryMs = config.deliveryTimeout().toMillis();
        // defaults the passthrough may change
        props.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        int batchSize = Math.min(DEFAULT_BATCH_SIZE, maxRequest);
        if (topicMaxMessageBytes.isPresent()) {
            batchSize = (int) Math.max(1, Math.min(batchSize, topicMaxMessageBytes.getAsLong()));
        }
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, batchSize);
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, DEFAULT_MAX_BLOCK_MS);
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int)
                Math.min(CLIENT_DEFAULT_REQUEST_TIMEOUT_MS, deliveryMs - lingerMs));
        props.putAll(config.producer());
        props.putAll(config.connectionProperties(path));
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
