package io.etl.kafka.sink;

import io.etl.core.config.DataSize;
import io.etl.kafka.common.KafkaSecurityConfig;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import java.time.Duration;
import java.util.List;
import java.util.Map;

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
 * @param brokers            bootstrap servers, comma-separated (required)
 * @param topic              the one topic this sink writes (required)
 * @param deliveryTimeout    producer {@code delivery.timeout.ms}; also bounds how long a batch waits for its
 *                           delivery reports
 * @param maxMessageBytes    largest message (key + value + headers) accepted; larger ones are record errors
 * @param statisticsInterval how often producer metrics are refreshed into {@code etl_kafka_sink_*}; 0s disables them
 * @param compression        producer batch compression
 * @param linger             producer {@code linger.ms}: how long the producer waits to fill a batch
 * @param topics             topics to create at startup when missing
 * @param adminTimeout       bound of the startup connectivity check and of topic creation
 * @param security           typed TLS/SASL settings; absent means PLAINTEXT unless the passthrough says otherwise
 * @param producer           kafka-clients producer properties applied after validation (see the denylist)
 * @param annotations        static key/values the envelope encoder echoes in every envelope value, as
 *                           {@code "annotations": {...}} (other encoders do not use them)
 */
public record KafkaSinkConfig(@NotBlank String brokers,
                              @NotBlank String topic,
                              Duration deliveryTimeout,
                              DataSize maxMessageBytes,
                              Duration statisticsInterval,
                              Compression compression,
                              Duration linger,
                              List<@Valid TopicSpec> topics,
                              Duration adminTimeout,
                              @Valid KafkaSecurityConfig security,
                              Map<String, String> producer,
                              Map<String, String> annotations) {

    public static final Duration DEFAULT_DELIVERY_TIMEOUT = Duration.ofSeconds(30);
    /** 1MB, decimal: 1,000,000 bytes. */
    public static final DataSize DEFAULT_MAX_MESSAGE_BYTES = DataSize.ofBytes(1_000_000);
    public static final Duration DEFAULT_STATISTICS_INTERVAL = Duration.ofSeconds(5);
    public static final Compression DEFAULT_COMPRESSION = Compression.NONE;
    public static final Duration DEFAULT_LINGER = Duration.ofMillis(5);
    public static final Duration DEFAULT_ADMIN_TIMEOUT = Duration.ofSeconds(30);

    public KafkaSinkConfig {
        deliveryTimeout = deliveryTimeout == null ? DEFAULT_DELIVERY_TIMEOUT : deliveryTimeout;
        maxMessageBytes = maxMessageBytes == null ? DEFAULT_MAX_MESSAGE_BYTES : maxMessageBytes;
        statisticsInterval = statisticsInterval == null ? DEFAULT_STATISTICS_INTERVAL : statisticsInterval;
        compression = compression == null ? DEFAULT_COMPRESSION : compression;
        linger = linger == null ? DEFAULT_LINGER : linger;
        topics = topics == null ? List.of() : List.copyOf(topics);
        adminTimeout = adminTimeout == null ? DEFAULT_ADMIN_TIMEOUT : adminTimeout;
        producer = io.etl.core.config.Secrets.protect(producer == null ? Map.of() : producer);
        annotations = annotations == null ? Map.of()
                : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(annotations));
    }

    /** Defaults for everything but the brokers and the topic. */
    public static KafkaSinkConfig of(String brokers, String topic) {
        return new KafkaSinkConfig(brokers, topic, null, null, null, null, null, null, null, null, null, null);
    }

    /** A copy with another passthrough map. */
    public KafkaSinkConfig withProducer(Map<String, String> value) {
        return new KafkaSinkConfig(brokers, topic, deliveryTimeout, maxMessageBytes, statisticsInterval, compression,
                linger, topics, adminTimeout, security, value, annotations);
    }

    /** A copy with another security section. */
    public KafkaSinkConfig withSecurity(KafkaSecurityConfig value) {
        return new KafkaSinkConfig(brokers, topic, deliveryTimeout, maxMessageBytes, statisticsInterval, compression,
                linger, topics, adminTimeout, value, producer, annotations);
    }

    /** A copy with another statistics interval. */
    public KafkaSinkConfig withStatisticsInterval(Duration value) {
        return new KafkaSinkConfig(brokers, topic, deliveryTimeout, maxMessageBytes, value,
                compression, linger, topics, adminTimeout, security, producer, annotations);
    }

    /** A copy with another size limit. */
    public KafkaSinkConfig withMaxMessageBytes(DataSize value) {
        return new KafkaSinkConfig(brokers, topic, deliveryTimeout, value, statisticsInterval, compression, linger,
                topics, adminTimeout, security, producer, annotations);
    }

    /** A copy with topics to create at startup. */
    public KafkaSinkConfig withTopics(List<TopicSpec> value) {
        return new KafkaSinkConfig(brokers, topic, deliveryTimeout, maxMessageBytes, statisticsInterval, compression,
                linger, value, adminTimeout, security, producer, annotations);
    }

    /** A copy with another delivery timeout. */
    public KafkaSinkConfig withDeliveryTimeout(Duration value) {
        return new KafkaSinkConfig(brokers, topic, value, maxMessageBytes, statisticsInterval, compression, linger,
                topics, adminTimeout, security, producer, annotations);
    }

    /** A copy with envelope annotations. */
    public KafkaSinkConfig withAnnotations(Map<String, String> value) {
        return new KafkaSinkConfig(brokers, topic, deliveryTimeout, maxMessageBytes, statisticsInterval, compression,
                linger, topics, adminTimeout, security, producer, value);
    }
}
