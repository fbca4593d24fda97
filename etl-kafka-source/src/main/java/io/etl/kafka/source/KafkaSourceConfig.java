package io.etl.kafka.source;

import io.etl.kafka.common.KafkaSecurityConfig;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code source.<name>.kafka} section: which cluster, which topics, which consumer group, and how
 * the consumer behaves.
 *
 * <pre>{@code
 * source:
 *   orders:
 *     kafka:
 *       brokers: ${KAFKA_BROKERS}
 *       topics: [orders]
 *       group_id: orders-split
 *       group_instance_id: ${HOSTNAME}      # optional: static membership, fast crash recovery
 *       security:                            # optional, same shape as the sink's
 *         protocol: SASL_SSL
 *         tls: {ca_file: /etc/kafka/ca.pem}
 *         sasl: {mechanism: SCRAM-SHA-512, username: etl, password: "${KAFKA_PASSWORD}"}
 *       on_error: skip                       # taken out by the core: what a decode failure does
 *       consumer:                            # kafka-clients passthrough, checked against a denylist
 *         fetch.min.bytes: "65536"
 * }</pre>
 *
 * <p>Exactly one of {@code topics} and {@code topic_pattern} must be set. The {@code consumer} map is
 * handed to the Java client as is, after checks: every key must be a consumer property the client knows,
 * and keys a typed field owns ({@code bootstrap.servers}, {@code group.id}, {@code enable.auto.commit},
 * the deserializers, ...) are rejected with the reason ({@link #DENIED_CONSUMER_PROPERTIES}).
 *
 * @param brokers          bootstrap servers, {@code host:port[,host:port...]}
 * @param topics           topics to subscribe to
 * @param topicPattern     a Java regular expression of topics to subscribe to, instead of {@code topics}
 * @param groupId          the consumer group; instances with the same group split the partitions
 * @param groupInstanceId  optional static membership id ({@code group.instance.id}), unique per instance:
 *                         a restarted instance gets its partitions back without waiting for the session
 *                         timeout
 * @param autoOffsetReset  where a partition without a committed offset starts
 * @param maxPollRecords   records one poll returns at most
 * @param pollTimeout      the longest a single poll waits for records
 * @param revokeTimeout    on a rebalance, how long revoked partitions' in-flight output may take to become
 *                         durable before their offsets are committed
 * @param sessionTimeout   how long the group waits for a silent instance before moving its partitions
 *                         (classic group protocol; with {@code group.protocol: consumer} the broker decides)
 * @param startupTimeout   bound of the connectivity check made before subscribing
 * @param statisticsInterval how often the consumer's own metrics are refreshed into the
 *                         {@code etl_kafka_source_*} meters ({@code 0s} registers none)
 * @param security         TLS and SASL settings, shared in shape with the Kafka sink; absent means
 *                         PLAINTEXT unless the {@code consumer} passthrough sets {@code security.protocol},
 *                         {@code ssl.*} and {@code sasl.*} itself (set each property in one place only)
 * @param consumer         kafka-clients consumer properties passed through after the checks
 */
public record KafkaSourceConfig(@NotBlank String brokers,
                                List<@NotBlank String> topics,
                                String topicPattern,
                                @NotBlank String groupId,
                                String groupInstanceId,
                                AutoOffsetReset autoOffsetReset,
                                @Min(1) @Max(100_000) Integer maxPollRecords,
                                Duration pollTimeout,
                                Duration revokeTimeout,
                                Duration sessionTimeout,
                                Duration startupTimeout,
                                Duration statisticsInterval,
                                @Valid KafkaSecurityConfig security,
                                Map<String, String> consumer) {

    public static final AutoOffsetReset DEFAULT_AUTO_OFFSET_RESET = AutoOffsetReset.EARLIEST;
    public static final int DEFAULT_MAX_POLL_RECORDS = 2000;
    public static final Duration DEFAULT_POLL_TIMEOUT = Duration.ofMillis(100);
    public static final Duration DEFAULT_REVOKE_TIMEOUT = Duration.ofSeconds(10);
    public static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofSeconds(10);
    public static final Duration DEFAULT_STARTUP_TIMEOUT = Duration.ofSeconds(30);
    public static final Duration DEFAULT_STATISTICS_INTERVAL = Duration.ofSeconds(5);

    /**
     * Consumer properties the {@code consumer} passthrough may not set, with the reason given to the user.
     */
    public static final Map<String, String> DENIED_CONSUMER_PROPERTIES = denylist(
            "bootstrap.servers", "set brokers instead",
            "group.id", "set group_id instead",
            "group.instance.id", "set group_instance_id instead",
            "enable.auto.commit", "the pipeline commits offsets itself, only behind durable output",
            "auto.offset.reset", "set auto_offset_reset instead",
            "key.deserializer", "keys stay bytes in RecordMeta",
            "value.deserializer", "payloads are decoded by the source's decoder (bytes(), string(), json(..), decoder(..))",
            "max.poll.records", "set max_poll_records instead",
            "session.timeout.ms", "set session_timeout instead",
            "metadata.broker.list", "set brokers instead (metadata.broker.list is librdkafka's alias of"
                    + " bootstrap.servers)",
            "statistics.interval.ms", "set statistics_interval instead, which refreshes the etl_kafka_source_*"
                    + " meters (librdkafka's name; the Java consumer has no statistics callback)",
            "enable.auto.offset.store", "the pipeline stores and commits offsets itself, only behind durable output"
                    + " (librdkafka's name)");

    /** Where a partition without a committed offset starts reading. */
    public enum AutoOffsetReset {
        /** From the oldest record still in the log. */
        EARLIEST,
        /** From the next record written (records written before the first assignment are never read). */
        LATEST,
        /** Fail the pipeline: every partition must already have a committed offset. */
        NONE
    }

    public KafkaSourceConfig {
        topics = topics == null ? List.of() : List.copyOf(topics);
        autoOffsetReset = autoOffsetReset == null ? DEFAULT_AUTO_OFFSET_RESET : autoOffsetReset;
        maxPollRecords = maxPollRecords == null ? DEFAULT_MAX_POLL_RECORDS : maxPollRecords;
        pollTimeout = pollTimeout == null ? DEFAULT_POLL_TIMEOUT : pollTimeout;
        revokeTimeout = revokeTimeout == null ? DEFAULT_REVOKE_TIMEOUT : revokeTimeout;
        sessionTimeout = sessionTimeout == null ? DEFAULT_SESSION_TIMEOUT : sessionTimeout;
        startupTimeout = startupTimeout == null ? DEFAULT_STARTUP_TIMEOUT : startupTimeout;
        statisticsInterval = statisticsInterval == null ? DEFAULT_STATISTICS_INTERVAL : statisticsInterval;
        consumer = io.etl.core.config.Secrets.protect(consumer == null ? Map.of() : consumer);
    }

    /**
     * A configuration for the given brokers, topics and group with every other setting at its default;
     * for pipelines built in code.
     */
    public static KafkaSourceConfig of(String brokers, List<String> topics, String groupId) {
        return new KafkaSourceConfig(brokers, topics, null, groupId, null, null, null, null, null, null, null, null, null, null);
    }

    private static Map<String, String> denylist(String... keyReasonPairs) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < keyReasonPairs.length; i += 2) {
            map.put(keyReasonPairs[i], keyReasonPairs[i + 1]);
        }
        return Collections.unmodifiableMap(map);
    }

    /** A copy with {@code group_instance_id} set. */
    public KafkaSourceConfig withGroupInstanceId(String value) {
        return new KafkaSourceConfig(brokers, topics, topicPattern, groupId, value, autoOffsetReset, maxPollRecords,
                pollTimeout, revokeTimeout, sessionTimeout, startupTimeout, statisticsInterval, security, consumer);
    }

    /** A copy with another {@code security} section. */
    public KafkaSourceConfig withSecurity(KafkaSecurityConfig value) {
        return new KafkaSourceConfig(brokers, topics, topicPattern, groupId, groupInstanceId, autoOffsetReset,
                maxPollRecords, pollTimeout, revokeTimeout, sessionTimeout, startupTimeout, statisticsInterval, value,
                consumer);
    }

    /** A copy with another {@code consumer} passthrough map. */
    public KafkaSourceConfig withConsumer(Map<String, String> value) {
        return new KafkaSourceConfig(brokers, topics, topicPattern, groupId, groupInstanceId, autoOffsetReset,
                maxPollRecords, pollTimeout, revokeTimeout, sessionTimeout, startupTimeout, statisticsInterval, security,
                value);
    }
}
