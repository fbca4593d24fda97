package io.etl.kafka.sink.internal;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Function;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@link KafkaProducer} shared by the Kafka sinks of one pipeline run whose producer settings are
 * identical (brokers, security, passthrough, timeouts, compression, producer linger). One producer means one
 * record accumulator, one network thread, and one produce request to a broker covering every topic, where
 * a producer per sink would send one request per topic. Reference-counted: the last sink to close it
 * closes it. A sink that finds the producer unusable replaces it for all of them.
 */
final class SharedProducer {

    private static final Logger LOG = LoggerFactory.getLogger(SharedProducer.class);
    private static final Map<Key, SharedProducer> REGISTRY = new ConcurrentHashMap<>();

    private final Key key;
    private final Function<Map<String, Object>, KafkaProducer<byte[], byte[]>> factory;
    private final Map<String, Object> properties;
    private final MeterRegistry registry;
    private final Tags tags;
    private final String clientId;
    private int references;
    private volatile KafkaProducer<byte[], byte[]> producer;
    private ProducerMetrics metrics;

    private SharedProducer(
            Key key,
            Map<String, Object> properties,
            Function<Map<String, Object>, KafkaProducer<byte[], byte[]>> factory,
            MeterRegistry registry,
            Tags tags) {
        this.key = key;
        this.properties = properties;
        this.factory = factory;
        this.registry = registry;
        this.tags = tags;
        this.clientId = String.valueOf(properties.get(ProducerConfig.CLIENT_ID_CONFIG));
    }

    /**
     * The producer for {@code properties} in run {@code runId}, created on first use.
     *
     * @param properties the complete producer properties; {@code client.id} is not part of the identity
     * @param tags       meter tags for the producer's own metrics when this call creates it
     */
    static SharedProducer acquire(
            String runId,
            Map<String, Object> properties,
            Function<Map<String, Object>, KafkaProducer<byte[], byte[]>> factory,
            MeterRegistry registry,
            Tags tags,
            Duration statisticsInterval) {
        Map<String, Object> identity = new TreeMap<>(properties);
        identity.remove(ProducerConfig.CLIENT_ID_CONFIG);
        Key key = new Key(runId, identity, statisticsInterval);
        while (true) {
            SharedProducer shared =
                    REGISTRY.computeIfAbsent(key, k -> new SharedProducer(k, properties, factory, registry, tags));
            synchronized (shared) {
                if (shared.references >= 0) {
                    shared.references++;
                    try {
                        shared.current();
                    } catch (RuntimeException e) {
                        shared.release(Duration.ZERO);
                        throw e;
                    }
                    return shared;
                }
            }
            // it was closed between lookup and lock: look again
        }
    }

    /** The producer, creating a new one after {@link #replace}. */
    KafkaProducer<byte[], byte[]> current() {
        KafkaProducer<byte[], byte[]> p = producer;
        if (p != null) {
            return p;
        }
        synchronized (this) {
            if (producer == null) {
                if (references < 0) {
                    throw new IllegalStateException("producer " + clientId + " is closed");
                }
                producer = factory.apply(properties);
                Duration statisticsInterval = key.statisticsInterval();
                if (!statisticsInterval.isZero()) {
                    metrics = ProducerMetrics.bind(producer, registry, tags, statisticsInterval, clientId + "-metrics");
                }
            }
            return producer;
        }
    }

    /** Drops {@code used} if it is still the current producer; the next {@link #current()} makes a new one. */
    void replace(KafkaProducer<byte[], byte[]> used, Throwable cause, Executor closer) {
        synchronized (this) {
            if (producer != used) {
                return;
            }
            LOG.warn(
                    "producer {} may be unusable after {}; replacing it before the next attempt",
                    clientId,
                    cause.toString());
            producer = null;
            closeMetrics();
        }
        try {
            closer.execute(() -> used.close(Duration.ZERO));
        } catch (RejectedExecutionException closing) {
            used.close(Duration.ZERO);
        }
    }

    /** One sink is done with it; the last one closes the producer within {@code timeout}. */
    void release(Duration timeout) {
        KafkaProducer<byte[], byte[]> toClose;
        synchronized (this) {
            if (references <= 0) {
                return;
            }
            references--;
            if (references > 0) {
                return;
            }
            references = -1;
            REGISTRY.remove(key, this);
            toClose = producer;
            producer = null;
            closeMetrics();
        }
        if (toClose != null) {
            toClose.close(timeout);
        }
    }

    private void closeMetrics() {
        if (metrics != null) {
            metrics.close();
            metrics = null;
        }
    }

    String clientId() {
        return clientId;
    }

    private record Key(String runId, Map<String, Object> properties, Duration statisticsInterval) {}
}
