package io.etl.runtime.tools;

import io.etl.core.config.PipelineConfig;
import io.etl.core.error.ConfigException;
import io.etl.core.error.ConfigProblem;
import io.etl.kafka.common.internal.ConnectivityCheck;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * A cluster a tool works on: the client properties of its connection, and the clients made from them. Closing it
 * closes the admin client it made; consumers and producers are the caller's to close.
 */
final class Cluster implements AutoCloseable {

    private final Map<String, Object> properties;
    private final String path;
    private final Duration timeout;
    private final KafkaSection section;
    private final PipelineConfig pipeline;
    private Admin admin;

    Cluster(
            Map<String, Object> properties,
            String path,
            Duration timeout,
            KafkaSection section,
            PipelineConfig pipeline) {
        this.properties = Map.copyOf(properties);
        this.path = path;
        this.timeout = timeout;
        this.section = section;
        this.pipeline = pipeline;
    }

    /** The section the connection comes from, or null with {@code --brokers}. */
    KafkaSection section() {
        return section;
    }

    /** The loaded pipeline YAML, or null. */
    PipelineConfig pipeline() {
        return pipeline;
    }

    String brokers() {
        return String.valueOf(properties.get("bootstrap.servers"));
    }

    Duration timeout() {
        return timeout;
    }

    /**
     * Checks, within the timeout, that the brokers answer and accept the credentials, as a pipeline's start-up check
     * does; a failure names the brokers and the cause.
     */
    Cluster requireReachable() {
        try {
            ConnectivityCheck.of(properties, path).timeout(timeout).run();
        } catch (ConfigException e) {
            throw ToolException.failed(e.problems().stream()
                    .map(ConfigProblem::toString)
                    .map(s -> s.replaceAll("\\s*\\R\\s*", " "))
                    .collect(Collectors.joining("; ")));
        }
        return this;
    }

    /** An admin client, made once. */
    Admin admin() {
        if (admin == null) {
            Map<String, Object> p = new HashMap<>(properties);
            int ms = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
            p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, ms);
            p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, ms);
            p.putIfAbsent(AdminClientConfig.CLIENT_ID_CONFIG, "etl-tools");
            admin = Admin.create(p);
        }
        return admin;
    }

    /** A consumer of raw bytes in no group, reading committed records only. */
    KafkaConsumer<byte[], byte[]> consumer() {
        Map<String, Object> p = new HashMap<>(properties);
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        p.putIfAbsent(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, "etl-tools");
        return new KafkaConsumer<>(p);
    }

    /** An idempotent producer of raw bytes that waits for every in-sync replica. */
    KafkaProducer<byte[], byte[]> producer() {
        Map<String, Object> p = new HashMap<>(properties);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, (int) Math.min(Integer.MAX_VALUE, timeout.toMillis()));
        p.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, "etl-tools");
        return new KafkaProducer<>(p);
    }

    /** The client properties, for a library call that makes clients of its own. */
    Map<String, Object> properties() {
        return properties;
    }

    /** The result of an admin call within the timeout; a failure names {@code what}. */
    <T> T get(KafkaFuture<T> future, String what) {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw ToolException.failed("cannot " + what + ": " + cause.getMessage());
        } catch (TimeoutException e) {
            throw ToolException.failed(
                    "cannot " + what + " within " + timeout.toSeconds() + "s (brokers " + brokers() + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ToolException.failed("interrupted while trying to " + what);
        }
    }

    /** Topics of the cluster, internal ones left out. */
    List<String> topicNames() {
        return get(admin().listTopics().names(), "list the topics").stream()
                .sorted()
                .toList();
    }

    @Override
    public void close() {
        if (admin != null) {
            admin.close(Duration.ofSeconds(5));
        }
    }
}
