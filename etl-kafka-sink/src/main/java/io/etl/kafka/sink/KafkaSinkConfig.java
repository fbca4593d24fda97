package io.etl.kafka.sink;

import io.etl.core.config.ConfigValidation;
import io.etl.core.config.DataSize;
import io.etl.core.config.RenamedFrom;
import io.etl.core.config.Secrets;
import io.etl.kafka.common.KafkaSecurityConfig;
import io.etl.kafka.common.SchemaRegistryConfig;
import io.etl.kafka.common.internal.ClientConnection;
import io.etl.kafka.sink.internal.KafkaSinkConfigType;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The {@code sinks.<name>.kafka} section. The pool keys ({@code shards}, {@code batch}, {@code inflight},
 * {@code queue}, {@code retry}, {@code breaker}, {@code on_error}) are taken out by the core into the
 * sink's pool settings; every other key binds here, and unknown keys are rejected with their path.
 *
 * <pre>{@code
 * sinks:
 *   eu:
 *     kafka:
 *       brokers: ${KAFKA_BROKERS:-localhost:9092}
 *       topic: orders-eu
 *       max_message_bytes: 1MB
 *       compression: lz4
 *       producer: {batch.size: "524288"}
 * }</pre>
 *
 * <p>In code, build one with {@link #custom()} or {@link #from(KafkaSinkConfig)}:
 * {@code KafkaSinkConfig.custom().brokers("localhost:9092").topic("orders-eu").build()}.
 *
 * @param brokers            bootstrap servers, comma-separated (required)
 * @param topic              the one topic this sink writes; required, except in a route's template section, which
 *                           has {@code route} instead
 * @param deliveryTimeout    producer {@code delivery.timeout.ms}; also bounds how long a batch waits for its
 *                           delivery reports
 * @param maxMessageBytes    largest message (key + value + headers) accepted; larger ones are record errors
 * @param statisticsInterval how often producer metrics are refreshed into {@code etl_kafka_sink_*}; 0s disables them
 * @param compression        producer batch compression
 * @param producerLinger     producer {@code linger.ms}: how long the producer waits to fill a batch (not the
 *                           pool's {@code batch.linger}); formerly {@code linger}
 * @param topics             topics to create at startup when missing
 * @param startupTimeout     bound of the startup connectivity check and of topic creation
 * @param refusedTimeout     how long the start waits while every address of {@code brokers} refuses TCP
 *                           connections (nothing listens: a wrong port, brokers down or still starting), within
 *                           {@code startupTimeout}
 * @param security           typed TLS/SASL settings; absent means PLAINTEXT unless the passthrough says otherwise
 * @param producer           kafka-clients producer properties applied after validation (see the denylist)
 * @param annotations        static key/values the envelope encoder echoes in every envelope value, as
 *                           {@code "annotations": {...}} (other encoders do not use them)
 * @param schemaRegistry     the schema registry the sink's Avro, Protobuf or JSON Schema encoder registers or
 *                           looks schemas up in (module {@code etl-schema-registry}); absent when none is used
 * @param route              in a route's template section (no {@code topic}): the topics the route may write
 */
public record KafkaSinkConfig(
        @NotBlank String brokers,
        String topic,
        Duration deliveryTimeout,
        DataSize maxMessageBytes,
        Duration statisticsInterval,
        Compression compression,
        @RenamedFrom("linger") Duration producerLinger,
        List<@Valid TopicSpec> topics,
        @RenamedFrom("admin_timeout") Duration startupTimeout,
        Duration refusedTimeout,
        @Valid KafkaSecurityConfig security,
        Map<String, String> producer,
        Map<String, String> annotations,
        @Valid SchemaRegistryConfig schemaRegistry,
        @Valid RouteConfig route) {

    public static final Duration DEFAULT_DELIVERY_TIMEOUT = Duration.ofSeconds(30);
    /** 1MB, decimal: 1,000,000 bytes. */
    public static final DataSize DEFAULT_MAX_MESSAGE_BYTES = DataSize.ofBytes(1_000_000);

    public static final Duration DEFAULT_STATISTICS_INTERVAL = Duration.ofSeconds(5);
    public static final Compression DEFAULT_COMPRESSION = Compression.NONE;
    public static final Duration DEFAULT_PRODUCER_LINGER = Duration.ofMillis(5);
    public static final Duration DEFAULT_STARTUP_TIMEOUT = Duration.ofSeconds(30);
    public static final Duration DEFAULT_REFUSED_TIMEOUT = Duration.ofSeconds(5);

    public KafkaSinkConfig {
        deliveryTimeout = deliveryTimeout == null ? DEFAULT_DELIVERY_TIMEOUT : deliveryTimeout;
        maxMessageBytes = maxMessageBytes == null ? DEFAULT_MAX_MESSAGE_BYTES : maxMessageBytes;
        statisticsInterval = statisticsInterval == null ? DEFAULT_STATISTICS_INTERVAL : statisticsInterval;
        compression = compression == null ? DEFAULT_COMPRESSION : compression;
        producerLinger = producerLinger == null ? DEFAULT_PRODUCER_LINGER : producerLinger;
        topics = topics == null ? List.of() : List.copyOf(topics);
        startupTimeout = startupTimeout == null ? DEFAULT_STARTUP_TIMEOUT : startupTimeout;
        refusedTimeout = refusedTimeout == null ? DEFAULT_REFUSED_TIMEOUT : refusedTimeout;
        producer = Secrets.protect(producer == null ? Map.of() : producer);
        annotations = annotations == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(annotations));
    }

    /** Defaults for everything but the brokers and the topic. */
    public static KafkaSinkConfig of(String brokers, String topic) {
        return new KafkaSinkConfig(
                brokers, topic, null, null, null, null, null, null, null, null, null, null, null, null, null);
    }

    /** Defaults for everything but the brokers, and a route's template section with {@code route}. */
    public static KafkaSinkConfig routeTemplate(String brokers, RouteConfig route) {
        return of(brokers, null).withRoute(Objects.requireNonNull(route, "route"));
    }

    /** A copy with another passthrough map. */
    public KafkaSinkConfig withProducer(Map<String, String> value) {
        return copy(b -> b.producer = value);
    }

    /** A copy with another security section. */
    public KafkaSinkConfig withSecurity(KafkaSecurityConfig value) {
        return copy(b -> b.security = value);
    }

    /** A copy with another statistics interval. */
    public KafkaSinkConfig withStatisticsInterval(Duration value) {
        return copy(b -> b.statisticsInterval = value);
    }

    /** A copy with another size limit. */
    public KafkaSinkConfig withMaxMessageBytes(DataSize value) {
        return copy(b -> b.maxMessageBytes = value);
    }

    /** A copy with topics to create at startup. */
    public KafkaSinkConfig withTopics(List<TopicSpec> value) {
        return copy(b -> b.topics = value);
    }

    /** A copy with another delivery timeout. */
    public KafkaSinkConfig withDeliveryTimeout(Duration value) {
        return copy(b -> b.deliveryTimeout = value);
    }

    /** A copy with another {@code schema_registry} block. */
    public KafkaSinkConfig withSchemaRegistry(SchemaRegistryConfig value) {
        return copy(b -> b.schemaRegistry = value);
    }

    /** A copy that is a route's template: no topic, and {@code value}. */
    public KafkaSinkConfig withRoute(RouteConfig value) {
        return copy(b -> {
            b.topic = null;
            b.route = value;
        });
    }

    /** A copy with envelope annotations. */
    public KafkaSinkConfig withAnnotations(Map<String, String> value) {
        return copy(b -> b.annotations = value);
    }

    /**
     * The properties a Kafka client needs to reach this sink's cluster as its producer does: the brokers, the
     * typed {@code security} section and the {@code security.*}, {@code ssl.*} and {@code sasl.*} keys of the
     * producer passthrough. For tools that share the pipeline's connection, such as an admin client.
     *
     * @param path the section's key path, e.g. {@code sinks.eu.kafka}, named by errors in the security settings
     */
    public Map<String, Object> connectionProperties(String path) {
        return ClientConnection.properties(brokers, security, producer, path);
    }

    /**
     * A copy with what {@code change} sets on a builder started from this configuration, not validated: the
     * {@code with...} copies may hold a setting out of range, which start-up then rejects.
     */
    private KafkaSinkConfig copy(Consumer<Builder> change) {
        Builder builder = new Builder(this);
        change.accept(builder);
        return builder.candidate();
    }

    /** A builder starting from the defaults, without brokers or topic (both required). */
    public static Builder custom() {
        return new Builder(of(null, null));
    }

    /** A builder starting from {@code base}. */
    public static Builder from(KafkaSinkConfig base) {
        return new Builder(Objects.requireNonNull(base, "base"));
    }

    /**
     * Builds a {@link KafkaSinkConfig} in code. Each setter rejects a value out of range at once, with the
     * message YAML validation gives; {@link #build()} checks the whole, including the rules that tie settings
     * together ({@code producer_linger} below {@code delivery_timeout}, the {@code producer} denylist).
     */
    public static final class Builder {

        private String brokers;
        private String topic;
        private Duration deliveryTimeout;
        private DataSize maxMessageBytes;
        private Duration statisticsInterval;
        private Compression compression;
        private Duration producerLinger;
        private List<TopicSpec> topics;
        private Duration startupTimeout;
        private Duration refusedTimeout;
        private KafkaSecurityConfig security;
        private Map<String, String> producer;
        private Map<String, String> annotations;
        private SchemaRegistryConfig schemaRegistry;
        private RouteConfig route;

        private Builder(KafkaSinkConfig base) {
            brokers = base.brokers();
            topic = base.topic();
            deliveryTimeout = base.deliveryTimeout();
            maxMessageBytes = base.maxMessageBytes();
            statisticsInterval = base.statisticsInterval();
            compression = base.compression();
            producerLinger = base.producerLinger();
            topics = base.topics();
            startupTimeout = base.startupTimeout();
            refusedTimeout = base.refusedTimeout();
            security = base.security();
            producer = base.producer();
            annotations = base.annotations();
            schemaRegistry = base.schemaRegistry();
            route = base.route();
        }

        /** Bootstrap servers, comma-separated; required. */
        public Builder brokers(String value) {
            brokers = ConfigValidation.checkValue(KafkaSinkConfig.class, "brokers", value);
            return this;
        }

        /** The one topic this sink writes; required, except in a route's template. */
        public Builder topic(String value) {
            topic = ConfigValidation.checkValue(KafkaSinkConfig.class, "topic", value);
            checkAt("topic");
            return this;
        }

        /** Makes the section a route's template: the topics the route may write (and no {@code topic}). */
        public Builder route(RouteConfig value) {
            route = ConfigValidation.checkValue(KafkaSinkConfig.class, "route", value);
            return this;
        }

        /** Producer {@code delivery.timeout.ms}, at least 1s; default 30s. */
        public Builder deliveryTimeout(Duration value) {
            deliveryTimeout = ConfigValidation.checkDuration("deliveryTimeout", value);
            checkAt("deliveryTimeout");
            return this;
        }

        /** Largest message accepted, 1B to 2GB; default 1MB. */
        public Builder maxMessageBytes(DataSize value) {
            maxMessageBytes = ConfigValidation.requireNonNull("maxMessageBytes", value);
            checkAt("maxMessageBytes");
            return this;
        }

        /** How often producer metrics are refreshed, zero (none) or more; default 5s. */
        public Builder statisticsInterval(Duration value) {
            statisticsInterval = ConfigValidation.requireNonNull("statisticsInterval", value);
            checkAt("statisticsInterval");
            return this;
        }

        /** Producer batch compression; default none. */
        public Builder compression(Compression value) {
            compression = ConfigValidation.requireNonNull("compression", value);
            return this;
        }

        /** Producer {@code linger.ms}, zero or more and below {@code delivery_timeout}; default 5ms. */
        public Builder producerLinger(Duration value) {
            producerLinger = ConfigValidation.checkDuration("producerLinger", value);
            return this;
        }

        /** Topics to create at startup when missing. */
        public Builder topics(List<TopicSpec> value) {
            topics = List.copyOf(ConfigValidation.requireNonNull("topics", value));
            checkAt("topics");
            return this;
        }

        /** Topics to create at startup when missing. */
        public Builder topics(TopicSpec... value) {
            return topics(List.of(value));
        }

        /** Bound of the startup connectivity check and of topic creation, above zero; default 30s. */
        public Builder startupTimeout(Duration value) {
            startupTimeout = ConfigValidation.requireNonNull("startupTimeout", value);
            checkAt("startupTimeout");
            return this;
        }

        /**
         * How long the start waits while every address of the brokers refuses TCP connections, above zero;
         * default 5s. Raise it to wait for brokers that are still starting.
         */
        public Builder refusedTimeout(Duration value) {
            refusedTimeout = ConfigValidation.requireNonNull("refusedTimeout", value);
            checkAt("refusedTimeout");
            return this;
        }

        /** Typed TLS/SASL settings. */
        public Builder security(KafkaSecurityConfig value) {
            security = ConfigValidation.requireNonNull("security", value);
            return this;
        }

        /** Kafka-clients producer properties, checked against the denylist. */
        public Builder producer(Map<String, String> value) {
            producer = ConfigValidation.requireNonNull("producer", value);
            checkAt("producer");
            return this;
        }

        /** The schema registry of the sink's encoder. */
        public Builder schemaRegistry(SchemaRegistryConfig value) {
            schemaRegistry = ConfigValidation.requireNonNull("schemaRegistry", value);
            return this;
        }

        /** Static key/values the envelope encoder echoes in every envelope value. */
        public Builder annotations(Map<String, String> value) {
            annotations = ConfigValidation.requireNonNull("annotations", value);
            checkAt("annotations");
            return this;
        }

        /** The settings, validated as a YAML section is. */
        public KafkaSinkConfig build() {
            KafkaSinkConfig config = ConfigValidation.requireValid(candidate(), "");
            ConfigValidation.requireNone(new KafkaSinkConfigType().check(config, ""));
            return config;
        }

        private KafkaSinkConfig candidate() {
            return new KafkaSinkConfig(
                    brokers,
                    topic,
                    deliveryTimeout,
                    maxMessageBytes,
                    statisticsInterval,
                    compression,
                    producerLinger,
                    topics,
                    startupTimeout,
                    refusedTimeout,
                    security,
                    producer,
                    annotations,
                    schemaRegistry,
                    route);
        }

        /** Throws the problems the sink's own rules find at {@code property} (a minimum, the denylist). */
        private void checkAt(String property) {
            ConfigValidation.requireNoneAt(property, new KafkaSinkConfigType().check(candidate(), ""));
        }
    }
}
