package io.etl.kafka.sink;

import io.etl.core.config.ConfigValidation;
import io.etl.core.config.DataSize;
import io.etl.core.config.RenamedFrom;
import io.etl.core.config.Secrets;
import io.etl.core.error.ConfigException;
import io.etl.kafka.common.KafkaSecurityConfig;
import io.etl.kafka.common.SchemaRegistryConfig;
import io.etl.kafka.common.internal.ClientConnection;
import io.etl.kafka.sink.internal.ProducerSettings;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

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
 * {@code KafkaSinkConfig.custom().brokers("localhost:9092").topic("orders-eu").build()}. However it is built, an
 * instance holds only settings that YAML validation accepts: its constructor checks them.
 *
 * @param brokers            bootstrap servers, comma-separated (required)
 * @param topic              the one topic this sink writes, not blank; required, except in a route's template
 *                           section, which has {@code route} instead, and in the {@code retry} section, which
 *                           names its topics after the source's (the loader checks which section it is)
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

    /**
     * The settings, each null one at its default. YAML binding calls this constructor; code reads better with
     * {@link #custom()}.
     *
     * @throws ConfigException when a setting is out of range or the settings break a rule between them
     *                         ({@code producer_linger} below {@code delivery_timeout}, the {@code producer}
     *                         denylist, both {@code topic} and {@code route}, ...), naming each at its key; the
     *                         rules of the section's place ({@code topic} or {@code route} in a sink entry) are
     *                         the loader's and the sink's
     */
    public KafkaSinkConfig(
            String brokers,
            String topic,
            Duration deliveryTimeout,
            DataSize maxMessageBytes,
            Duration statisticsInterval,
            Compression compression,
            Duration producerLinger,
            List<TopicSpec> topics,
            Duration startupTimeout,
            Duration refusedTimeout,
            KafkaSecurityConfig security,
            Map<String, String> producer,
            Map<String, String> annotations,
            SchemaRegistryConfig schemaRegistry,
            RouteConfig route) {
        this.brokers = brokers;
        this.topic = topic;
        this.deliveryTimeout = deliveryTimeout == null ? DEFAULT_DELIVERY_TIMEOUT : deliveryTimeout;
        this.maxMessageBytes = maxMessageBytes == null ? DEFAULT_MAX_MESSAGE_BYTES : maxMessageBytes;
        this.statisticsInterval = statisticsInterval == null ? DEFAULT_STATISTICS_INTERVAL : statisticsInterval;
        this.compression = compression == null ? DEFAULT_COMPRESSION : compression;
        this.producerLinger = producerLinger == null ? DEFAULT_PRODUCER_LINGER : producerLinger;
        this.topics = topics == null ? List.of() : List.copyOf(topics);
        this.startupTimeout = startupTimeout == null ? DEFAULT_STARTUP_TIMEOUT : startupTimeout;
        this.refusedTimeout = refusedTimeout == null ? DEFAULT_REFUSED_TIMEOUT : refusedTimeout;
        this.security = security;
        this.producer = Secrets.protect(producer == null ? Map.of() : producer);
        this.annotations =
                annotations == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(annotations));
        this.schemaRegistry = schemaRegistry;
        this.route = route;
        ConfigValidation.checkConstructed(this, c -> ProducerSettings.rules(c, ""));
    }

    /** Defaults for everything but the brokers, and a route's template section with {@code route}. */
    public static KafkaSinkConfig routeTemplate(String brokers, RouteConfig route) {
        return custom().brokers(brokers)
                .route(Objects.requireNonNull(route, "route"))
                .build();
    }

    /** A copy that is a route's template: no {@code topic}, and {@code value} as its {@code route}. */
    public KafkaSinkConfig withRoute(RouteConfig value) {
        Builder b = from(this);
        b.topic = null;
        return b.route(value).build();
    }

    /** {@code from(this).producer(value).build()}. */
    public KafkaSinkConfig withProducer(Map<String, String> value) {
        return from(this).producer(value).build();
    }

    /** {@code from(this).security(value).build()}: a copy with another security section (null for none). */
    public KafkaSinkConfig withSecurity(KafkaSecurityConfig value) {
        return from(this).security(value).build();
    }

    /** {@code from(this).statisticsInterval(value).build()}. */
    public KafkaSinkConfig withStatisticsInterval(Duration value) {
        return from(this).statisticsInterval(value).build();
    }

    /** {@code from(this).maxMessageBytes(value).build()}. */
    public KafkaSinkConfig withMaxMessageBytes(DataSize value) {
        return from(this).maxMessageBytes(value).build();
    }

    /** {@code from(this).topics(value).build()}. */
    public KafkaSinkConfig withTopics(List<TopicSpec> value) {
        return from(this).topics(value).build();
    }

    /** {@code from(this).deliveryTimeout(value).build()}. */
    public KafkaSinkConfig withDeliveryTimeout(Duration value) {
        return from(this).deliveryTimeout(value).build();
    }

    /** {@code from(this).schemaRegistry(value).build()}: a copy with another registry block (null for none). */
    public KafkaSinkConfig withSchemaRegistry(SchemaRegistryConfig value) {
        return from(this).schemaRegistry(value).build();
    }

    /** {@code from(this).annotations(value).build()}. */
    public KafkaSinkConfig withAnnotations(Map<String, String> value) {
        return from(this).annotations(value).build();
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

    /** A builder starting from the defaults, without brokers or topic (a sink entry needs a topic or a route). */
    public static Builder custom() {
        return new Builder();
    }

    /** A builder starting from {@code base}. */
    public static Builder from(KafkaSinkConfig base) {
        return new Builder(Objects.requireNonNull(base, "base"));
    }

    /**
     * Builds a {@link KafkaSinkConfig} in code. Each setter rejects a value out of range at once, with the
     * message YAML validation gives; {@link #build()} checks the whole, including the rules that tie settings
     * together ({@code producer_linger} below {@code delivery_timeout}, the typed {@code security} section against
     * the {@code producer} passthrough).
     */
    public static final class Builder {

        private String brokers;
        private String topic;
        private Duration deliveryTimeout = DEFAULT_DELIVERY_TIMEOUT;
        private DataSize maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES;
        private Duration statisticsInterval = DEFAULT_STATISTICS_INTERVAL;
        private Compression compression = DEFAULT_COMPRESSION;
        private Duration producerLinger = DEFAULT_PRODUCER_LINGER;
        private List<TopicSpec> topics = List.of();
        private Duration startupTimeout = DEFAULT_STARTUP_TIMEOUT;
        private Duration refusedTimeout = DEFAULT_REFUSED_TIMEOUT;
        private KafkaSecurityConfig security;
        private Map<String, String> producer = Map.of();
        private Map<String, String> annotations = Map.of();
        private SchemaRegistryConfig schemaRegistry;
        private RouteConfig route;

        private Builder() {}

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

        /** Bootstrap servers, comma-separated, not blank; required. */
        public Builder brokers(String value) {
            brokers = ConfigValidation.checkValue(KafkaSinkConfig.class, "brokers", value);
            return this;
        }

        /** The one topic this sink writes, not blank; required, except in a route's template. */
        public Builder topic(String value) {
            ConfigValidation.requireNonNull("topic", value);
            ConfigValidation.requireNone(ProducerSettings.topic(value, ""));
            topic = value;
            return this;
        }

        /**
         * Makes the section a route's template: the topics the route may write (and no {@code topic}); default
         * none. Checked at once, and against {@code topic} at build.
         */
        public Builder route(RouteConfig value) {
            route = ConfigValidation.checkValue(KafkaSinkConfig.class, "route", value);
            return this;
        }

        /** Producer {@code delivery.timeout.ms}, at least 1s and above {@code producer_linger}; default 30s. */
        public Builder deliveryTimeout(Duration value) {
            ConfigValidation.checkDuration("deliveryTimeout", value);
            ConfigValidation.requireNone(ProducerSettings.deliveryTimeout(value, ""));
            deliveryTimeout = value;
            return this;
        }

        /** Largest message accepted, 1B to 2GB; default 1MB. */
        public Builder maxMessageBytes(DataSize value) {
            ConfigValidation.requireNonNull("maxMessageBytes", value);
            ConfigValidation.requireNone(ProducerSettings.maxMessageBytes(value, ""));
            maxMessageBytes = value;
            return this;
        }

        /** How often producer metrics are refreshed, zero (none) or more; default 5s. */
        public Builder statisticsInterval(Duration value) {
            ConfigValidation.requireNonNull("statisticsInterval", value);
            ConfigValidation.requireNone(ProducerSettings.statisticsInterval(value, ""));
            statisticsInterval = value;
            return this;
        }

        /** Producer batch compression; default none. */
        public Builder compression(Compression value) {
            compression = ConfigValidation.requireNonNull("compression", value);
            return this;
        }

        /** Producer {@code linger.ms}, zero or more and below {@code delivery_timeout} (checked at build); default 5ms. */
        public Builder producerLinger(Duration value) {
            producerLinger = ConfigValidation.checkDuration("producerLinger", value);
            return this;
        }

        /** Topics to create at startup when missing, none listed twice; default none. */
        public Builder topics(List<TopicSpec> value) {
            List<TopicSpec> copy = List.copyOf(ConfigValidation.requireNonNull("topics", value));
            ConfigValidation.requireNone(ProducerSettings.topics(copy, ""));
            topics = copy;
            return this;
        }

        /** Topics to create at startup when missing, none listed twice; default none. */
        public Builder topics(TopicSpec... value) {
            return topics(List.of(value));
        }

        /** Bound of the startup connectivity check and of topic creation, above zero; default 30s. */
        public Builder startupTimeout(Duration value) {
            ConfigValidation.requireNonNull("startupTimeout", value);
            ConfigValidation.requireNone(ProducerSettings.startupTimeout(value, ""));
            startupTimeout = value;
            return this;
        }

        /**
         * How long the start waits while every address of the brokers refuses TCP connections, above zero;
         * default 5s. Raise it to wait for brokers that are still starting.
         */
        public Builder refusedTimeout(Duration value) {
            ConfigValidation.requireNonNull("refusedTimeout", value);
            ConfigValidation.requireNone(ProducerSettings.refusedTimeout(value, ""));
            refusedTimeout = value;
            return this;
        }

        /**
         * Typed TLS/SASL settings, or null for none (the default: PLAINTEXT unless the {@code producer}
         * passthrough says otherwise); checked against the passthrough at build.
         */
        public Builder security(KafkaSecurityConfig value) {
            security = value;
            return this;
        }

        /**
         * Kafka-clients producer properties: each one the client knows, none the sink owns
         * ({@link ProducerSettings#DENIED}) or the typed {@code security} section sets; default none.
         */
        public Builder producer(Map<String, String> value) {
            ConfigValidation.requireNonNull("producer", value);
            ConfigValidation.requireNone(ProducerSettings.passthrough(value, security, ""));
            producer = value;
            return this;
        }

        /** The schema registry of the sink's encoder, or null for none (the default). */
        public Builder schemaRegistry(SchemaRegistryConfig value) {
            schemaRegistry = value;
            return this;
        }

        /** Static key/values the envelope encoder echoes in every envelope value, no key blank; default none. */
        public Builder annotations(Map<String, String> value) {
            ConfigValidation.requireNonNull("annotations", value);
            ConfigValidation.requireNone(ProducerSettings.annotations(value, ""));
            annotations = value;
            return this;
        }

        /** The settings; the constructor checks the whole as YAML validation does. */
        public KafkaSinkConfig build() {
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
    }
}
