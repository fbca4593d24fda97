package io.etl.kafka.source;

import io.etl.core.config.ConfigValidation;
import io.etl.core.config.Secrets;
import io.etl.core.error.ConfigException;
import io.etl.kafka.common.KafkaSecurityConfig;
import io.etl.kafka.common.SchemaRegistryConfig;
import io.etl.kafka.source.internal.SourceConfigCheck;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

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
 * <p>In code, build one with {@link #custom()} or {@link #from(KafkaSourceConfig)}:
 * {@code KafkaSourceConfig.custom().brokers("localhost:9092").topics("orders").groupId("split").build()}. However it
 * is built, an instance holds only settings that YAML validation accepts: its constructor checks them.
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
 * @param refusedTimeout   how long the start waits while every address of {@code brokers} refuses TCP connections
 *                         (nothing listens: a wrong port, brokers down or still starting), within
 *                         {@code startupTimeout}
 * @param statisticsInterval how often the consumer's own metrics are refreshed into the
 *                         {@code etl_kafka_source_*} meters ({@code 0s} registers none)
 * @param security         TLS and SASL settings, shared in shape with the Kafka sink; absent means
 *                         PLAINTEXT unless the {@code consumer} passthrough sets {@code security.protocol},
 *                         {@code ssl.*} and {@code sasl.*} itself (set each property in one place only)
 * @param consumer         kafka-clients consumer properties passed through after the checks
 * @param schemaRegistry   the schema registry the source's Avro, Protobuf or JSON Schema decoder reads writer
 *                         schemas from (module {@code etl-schema-registry}); absent when payloads need none
 */
public record KafkaSourceConfig(
        @NotBlank String brokers,
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
        Duration refusedTimeout,
        Duration statisticsInterval,
        @Valid KafkaSecurityConfig security,
        Map<String, String> consumer,
        @Valid SchemaRegistryConfig schemaRegistry) {

    public static final AutoOffsetReset DEFAULT_AUTO_OFFSET_RESET = AutoOffsetReset.EARLIEST;
    public static final int DEFAULT_MAX_POLL_RECORDS = 2000;
    public static final Duration DEFAULT_POLL_TIMEOUT = Duration.ofMillis(100);
    public static final Duration DEFAULT_REVOKE_TIMEOUT = Duration.ofSeconds(10);
    public static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofSeconds(10);
    public static final Duration DEFAULT_STARTUP_TIMEOUT = Duration.ofSeconds(30);
    public static final Duration DEFAULT_REFUSED_TIMEOUT = Duration.ofSeconds(5);
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
            "value.deserializer",
                    "payloads are decoded by the source's decoder (bytes(), string(), json(..), decoder(..))",
            "max.poll.records", "set max_poll_records instead",
            "session.timeout.ms", "set session_timeout instead",
            "metadata.broker.list",
                    "set brokers instead (metadata.broker.list is librdkafka's alias of" + " bootstrap.servers)",
            "statistics.interval.ms",
                    "set statistics_interval instead, which refreshes the etl_kafka_source_*"
                            + " meters (librdkafka's name; the Java consumer has no statistics callback)",
            "enable.auto.offset.store",
                    "the pipeline stores and commits offsets itself, only behind durable output"
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

    /**
     * The settings, each null one at its default. YAML binding calls this constructor; code reads better with
     * {@link #custom()}.
     *
     * @throws ConfigException when a setting is out of range or the settings break a rule between them (exactly
     *                         one of {@code topics} and {@code topic_pattern}, the {@code consumer} denylist, ...),
     *                         naming each at its key
     */
    public KafkaSourceConfig(
            String brokers,
            List<String> topics,
            String topicPattern,
            String groupId,
            String groupInstanceId,
            AutoOffsetReset autoOffsetReset,
            Integer maxPollRecords,
            Duration pollTimeout,
            Duration revokeTimeout,
            Duration sessionTimeout,
            Duration startupTimeout,
            Duration refusedTimeout,
            Duration statisticsInterval,
            KafkaSecurityConfig security,
            Map<String, String> consumer,
            SchemaRegistryConfig schemaRegistry) {
        this.brokers = brokers;
        this.topics = topics == null ? List.of() : List.copyOf(topics);
        this.topicPattern = topicPattern;
        this.groupId = groupId;
        this.groupInstanceId = groupInstanceId;
        this.autoOffsetReset = autoOffsetReset == null ? DEFAULT_AUTO_OFFSET_RESET : autoOffsetReset;
        this.maxPollRecords = maxPollRecords == null ? DEFAULT_MAX_POLL_RECORDS : maxPollRecords;
        this.pollTimeout = pollTimeout == null ? DEFAULT_POLL_TIMEOUT : pollTimeout;
        this.revokeTimeout = revokeTimeout == null ? DEFAULT_REVOKE_TIMEOUT : revokeTimeout;
        this.sessionTimeout = sessionTimeout == null ? DEFAULT_SESSION_TIMEOUT : sessionTimeout;
        this.startupTimeout = startupTimeout == null ? DEFAULT_STARTUP_TIMEOUT : startupTimeout;
        this.refusedTimeout = refusedTimeout == null ? DEFAULT_REFUSED_TIMEOUT : refusedTimeout;
        this.statisticsInterval = statisticsInterval == null ? DEFAULT_STATISTICS_INTERVAL : statisticsInterval;
        this.security = security;
        this.consumer = Secrets.protect(consumer == null ? Map.of() : consumer);
        this.schemaRegistry = schemaRegistry;
        ConfigValidation.checkConstructed(this, c -> SourceConfigCheck.problems(c, ""));
    }

    private static Map<String, String> denylist(String... keyReasonPairs) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < keyReasonPairs.length; i += 2) {
            map.put(keyReasonPairs[i], keyReasonPairs[i + 1]);
        }
        return Collections.unmodifiableMap(map);
    }

    /** {@code from(this).groupInstanceId(value).build()}. */
    public KafkaSourceConfig withGroupInstanceId(String value) {
        return from(this).groupInstanceId(value).build();
    }

    /** {@code from(this).security(value).build()}: a copy with another security section (null for none). */
    public KafkaSourceConfig withSecurity(KafkaSecurityConfig value) {
        return from(this).security(value).build();
    }

    /** {@code from(this).schemaRegistry(value).build()}: a copy with another registry block (null for none). */
    public KafkaSourceConfig withSchemaRegistry(SchemaRegistryConfig value) {
        return from(this).schemaRegistry(value).build();
    }

    /** {@code from(this).consumer(value).build()}. */
    public KafkaSourceConfig withConsumer(Map<String, String> value) {
        return from(this).consumer(value).build();
    }

    /** A builder starting from the defaults, without brokers, topics or group (all required). */
    public static Builder custom() {
        return new Builder();
    }

    /** A builder starting from {@code base}. */
    public static Builder from(KafkaSourceConfig base) {
        return new Builder(Objects.requireNonNull(base, "base"));
    }

    /**
     * Builds a {@link KafkaSourceConfig} in code. Each setter rejects a value out of range at once, with the
     * message YAML validation gives; {@link #build()} checks the whole, including the rules that tie settings
     * together (exactly one of {@code topics} and {@code topic_pattern}, the typed {@code security} section against
     * the {@code consumer} passthrough).
     */
    public static final class Builder {

        private String brokers;
        private List<String> topics = List.of();
        private String topicPattern;
        private String groupId;
        private String groupInstanceId;
        private AutoOffsetReset autoOffsetReset = DEFAULT_AUTO_OFFSET_RESET;
        private int maxPollRecords = DEFAULT_MAX_POLL_RECORDS;
        private Duration pollTimeout = DEFAULT_POLL_TIMEOUT;
        private Duration revokeTimeout = DEFAULT_REVOKE_TIMEOUT;
        private Duration sessionTimeout = DEFAULT_SESSION_TIMEOUT;
        private Duration startupTimeout = DEFAULT_STARTUP_TIMEOUT;
        private Duration refusedTimeout = DEFAULT_REFUSED_TIMEOUT;
        private Duration statisticsInterval = DEFAULT_STATISTICS_INTERVAL;
        private KafkaSecurityConfig security;
        private Map<String, String> consumer = Map.of();
        private SchemaRegistryConfig schemaRegistry;

        private Builder() {}

        private Builder(KafkaSourceConfig base) {
            brokers = base.brokers();
            topics = base.topics();
            topicPattern = base.topicPattern();
            groupId = base.groupId();
            groupInstanceId = base.groupInstanceId();
            autoOffsetReset = base.autoOffsetReset();
            maxPollRecords = base.maxPollRecords();
            pollTimeout = base.pollTimeout();
            revokeTimeout = base.revokeTimeout();
            sessionTimeout = base.sessionTimeout();
            startupTimeout = base.startupTimeout();
            refusedTimeout = base.refusedTimeout();
            statisticsInterval = base.statisticsInterval();
            security = base.security();
            consumer = base.consumer();
            schemaRegistry = base.schemaRegistry();
        }

        /** Bootstrap servers, {@code host:port[,host:port...]}, not blank; required. */
        public Builder brokers(String value) {
            brokers = ConfigValidation.checkValue(KafkaSourceConfig.class, "brokers", value);
            return this;
        }

        /** Topics to subscribe to, none blank (or a {@link #topicPattern}, not both: checked at build). */
        public Builder topics(List<String> value) {
            List<String> copy = List.copyOf(ConfigValidation.requireNonNull("topics", value));
            topics = ConfigValidation.checkValue(KafkaSourceConfig.class, "topics", copy);
            return this;
        }

        /** Topics to subscribe to, none blank (or a {@link #topicPattern}, not both: checked at build). */
        public Builder topics(String... value) {
            return topics(List.of(value));
        }

        /** A Java regular expression of topics to subscribe to, instead of {@link #topics}; not blank. */
        public Builder topicPattern(String value) {
            ConfigValidation.requireNonNull("topicPattern", value);
            ConfigValidation.requireNone(SourceConfigCheck.topicPattern(value, ""));
            topicPattern = value;
            return this;
        }

        /** The consumer group, not blank; required. */
        public Builder groupId(String value) {
            groupId = ConfigValidation.checkValue(KafkaSourceConfig.class, "groupId", value);
            return this;
        }

        /**
         * Static membership id, at most 249 characters of a-z, A-Z, 0-9, {@code .}, {@code _} and {@code -}; default
         * none (dynamic membership).
         */
        public Builder groupInstanceId(String value) {
            ConfigValidation.requireNonNull("groupInstanceId", value);
            ConfigValidation.requireNone(SourceConfigCheck.groupInstanceId(value, ""));
            groupInstanceId = value;
            return this;
        }

        /** Where a partition without a committed offset starts; default earliest. */
        public Builder autoOffsetReset(AutoOffsetReset value) {
            autoOffsetReset = ConfigValidation.requireNonNull("autoOffsetReset", value);
            return this;
        }

        /** Records one poll returns at most, 1 to 100000; default {@value KafkaSourceConfig#DEFAULT_MAX_POLL_RECORDS}. */
        public Builder maxPollRecords(int value) {
            maxPollRecords = ConfigValidation.checkValue(KafkaSourceConfig.class, "maxPollRecords", value);
            return this;
        }

        /** The longest a single poll waits, at least 1ms; default 100ms. */
        public Builder pollTimeout(Duration value) {
            ConfigValidation.checkDuration("pollTimeout", value);
            ConfigValidation.requireNone(SourceConfigCheck.pollTimeout(value, ""));
            pollTimeout = value;
            return this;
        }

        /** How long revoked partitions' output may take to become durable, at least 1ms; default 10s. */
        public Builder revokeTimeout(Duration value) {
            ConfigValidation.checkDuration("revokeTimeout", value);
            ConfigValidation.requireNone(SourceConfigCheck.revokeTimeout(value, ""));
            revokeTimeout = value;
            return this;
        }

        /** How long the group waits for a silent instance, at least 1s; default 10s. */
        public Builder sessionTimeout(Duration value) {
            ConfigValidation.checkDuration("sessionTimeout", value);
            ConfigValidation.requireNone(SourceConfigCheck.sessionTimeout(value, ""));
            sessionTimeout = value;
            return this;
        }

        /** Bound of the connectivity check made before subscribing, at least 1ms; default 30s. */
        public Builder startupTimeout(Duration value) {
            ConfigValidation.checkDuration("startupTimeout", value);
            ConfigValidation.requireNone(SourceConfigCheck.startupTimeout(value, ""));
            startupTimeout = value;
            return this;
        }

        /**
         * How long the start waits while every address of the brokers refuses TCP connections, at least 1ms;
         * default 5s. Raise it to wait for brokers that are still starting.
         */
        public Builder refusedTimeout(Duration value) {
            ConfigValidation.checkDuration("refusedTimeout", value);
            ConfigValidation.requireNone(SourceConfigCheck.refusedTimeout(value, ""));
            refusedTimeout = value;
            return this;
        }

        /** How often the consumer's metrics are refreshed, zero (none) or more; default 5s. */
        public Builder statisticsInterval(Duration value) {
            ConfigValidation.requireNonNull("statisticsInterval", value);
            ConfigValidation.requireNone(SourceConfigCheck.statisticsInterval(value, ""));
            statisticsInterval = value;
            return this;
        }

        /**
         * TLS and SASL settings, or null for none (the default: PLAINTEXT unless the {@code consumer} passthrough
         * says otherwise); checked against the passthrough at build.
         */
        public Builder security(KafkaSecurityConfig value) {
            security = value;
            return this;
        }

        /**
         * Kafka-clients consumer properties: each one the client knows, none the source owns
         * ({@link KafkaSourceConfig#DENIED_CONSUMER_PROPERTIES}) or the typed {@code security} section sets;
         * default none.
         */
        public Builder consumer(Map<String, String> value) {
            ConfigValidation.requireNonNull("consumer", value);
            ConfigValidation.requireNone(SourceConfigCheck.passthrough(value, security, ""));
            consumer = value;
            return this;
        }

        /** The schema registry of the source's decoder, or null for none (the default). */
        public Builder schemaRegistry(SchemaRegistryConfig value) {
            schemaRegistry = value;
            return this;
        }

        /** The settings; the constructor checks the whole as YAML validation does. */
        public KafkaSourceConfig build() {
            return new KafkaSourceConfig(
                    brokers,
                    topics,
                    topicPattern,
                    groupId,
                    groupInstanceId,
                    autoOffsetReset,
                    maxPollRecords,
                    pollTimeout,
                    revokeTimeout,
                    sessionTimeout,
                    startupTimeout,
                    refusedTimeout,
                    statisticsInterval,
                    security,
                    consumer,
                    schemaRegistry);
        }
    }
}
