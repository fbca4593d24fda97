package io.etl.kafka.sink.internal;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the largest record batch a topic accepts: its {@code max.message.bytes}, which is the topic's own
 * setting or, when it has none, the broker default ({@code message.max.bytes}) as the broker reports it.
 */
final class TopicLimits {

    private static final Logger LOG = LoggerFactory.getLogger(TopicLimits.class);

    private TopicLimits() {
    }

    /**
     * The topic's effective {@code max.message.bytes}, or empty when it cannot be read (for example without
     * the {@code DESCRIBE_CONFIGS} permission); never fails the start-up for that.
     */
    static OptionalLong maxMessageBytes(Map<String, Object> connection, String topic, Duration timeout, String path) {
        Map<String, Object> props = new HashMap<>();
        connection.forEach((k, v) -> {
            if (AdminClientConfig.configNames().contains(k)) {
                props.put(k, v);
            }
        });
        int ms = (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, ms);
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, ms);
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        try (Admin admin = Admin.create(props)) {
            Config config = admin.describeConfigs(List.of(resource)).all().get(ms, TimeUnit.MILLISECONDS).get(resource);
            ConfigEntry entry = config == null ? null : config.get(TopicConfig.MAX_MESSAGE_BYTES_CONFIG);
            if (entry == null || entry.value() == null) {
                return OptionalLong.empty();
            }
            long value = Long.parseLong(entry.value());
            LOG.debug("{}: topic '{}' max.message.bytes = {} ({})", path, topic, value, entry.source());
            return OptionalLong.of(value);
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            LOG.info("{}: cannot read max.message.bytes of topic '{}' ({}); the size guard uses max_message_bytes only",
                    path, topic, cause.getClass().getSimpleName() + ": " + cause.getMessage());
            return OptionalLong.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return OptionalLong.empty();
        }
    }
}
