package io.etl.kafka.source.internal;

import io.etl.core.error.ConfigException;
import io.etl.core.error.FatalException;
import io.etl.kafka.source.KafkaSourceConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Before the consumer subscribes: can the brokers be reached and authenticated within
 * {@code startup_timeout}, and do the configured topics exist? A consumer would otherwise log
 * "disconnected" for ever against a wrong port or protocol.
 */
final class StartupCheck {

    private StartupCheck() {
    }

    /**
     * @param path where problems point ({@code source.<name>.kafka})
     * @throws ConfigException when the brokers cannot be reached or a topic is missing
     * @throws FatalException  when the principal may not describe the cluster or topics
     */
    static void run(KafkaSourceConfig config, Map<String, Object> connection, String path) {
        Duration timeout = config.startupTimeout();
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<String, Object> props = new java.util.HashMap<>(connection);
        int ms = (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, ms);
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, ms);
        props.putIfAbsent(AdminClientConfig.CLIENT_ID_CONFIG, "etl-source-check");
        try (Admin admin = Admin.create(props)) {
            try {
                await(admin.describeCluster(new DescribeClusterOptions().timeoutMs(ms)).nodes(), deadline);
            } catch (TimeoutException e) {
                throw ConfigException.of(path + ".brokers", "could not reach brokers " + config.brokers() + " within "
                        + timeout + "; check brokers and security.protocol (a plaintext client against a TLS or SASL"
                        + " listener never gets a clearer answer)", e);
            } catch (ExecutionException e) {
                throw describe(config, path, e.getCause());
            }
            if (!config.topics().isEmpty()) {
                checkTopics(admin, config, path, ms, deadline);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FatalException("interrupted while checking brokers " + config.brokers(), e);
        } catch (org.apache.kafka.common.KafkaException e) {
            throw ConfigException.of(path, "cannot create a client for brokers " + config.brokers() + ": "
                    + message(e), e);
        }
    }

    private static void checkTopics(Admin admin, KafkaSourceConfig config, String path, int ms, long deadline)
            throws InterruptedException {
        Map<String, KafkaFuture<TopicDescription>> futures = admin.describeTopics(config.topics(),
                new DescribeTopicsOptions().timeoutMs(ms)).topicNameValues();
        List<String> missing = new ArrayList<>();
        for (Map.Entry<String, KafkaFuture<TopicDescription>> e : futures.entrySet()) {
            try {
                await(e.getValue(), deadline);
            } catch (TimeoutException t) {
                throw ConfigException.of(path + ".topics", "could not describe topic " + e.getKey() + " on brokers "
                        + config.brokers() + " within " + config.startupTimeout(), t);
            } catch (ExecutionException x) {
                if (x.getCause() instanceof UnknownTopicOrPartitionException) {
                    missing.add(e.getKey());
                } else {
                    throw describe(config, path, x.getCause());
                }
            }
        }
        if (!missing.isEmpty()) {
            throw ConfigException.of(path + ".topics", "topic" + (missing.size() > 1 ? "s " : " ")
                    + String.join(", ", sorted(missing)) + " not found on brokers " + config.brokers());
        }
    }

    private static List<String> sorted(Collection<String> names) {
        return names.stream().sorted().toList();
    }

    private static <T> T await(KafkaFuture<T> future, long deadline)
            throws InterruptedException, ExecutionException, TimeoutException {
        long left = Math.max(0, deadline - System.nanoTime());
        return future.get(left, TimeUnit.NANOSECONDS);
    }

    private static RuntimeException describe(KafkaSourceConfig config, String path, Throwable cause) {
        if (cause instanceof AuthenticationException) {
            return ConfigException.of(path + ".security", "brokers " + config.brokers() + " rejected the credentials: "
                    + message(cause), cause);
        }
        if (cause instanceof AuthorizationException) {
            return new FatalException("brokers " + config.brokers() + " refused access: " + message(cause), cause);
        }
        if (cause instanceof org.apache.kafka.common.errors.TimeoutException) {
            return ConfigException.of(path + ".brokers", "could not reach brokers " + config.brokers() + " within "
                    + config.startupTimeout() + "; check brokers and security.protocol", cause);
        }
        return ConfigException.of(path + ".brokers", "cannot talk to brokers " + config.brokers() + ": "
                + message(cause), cause);
    }

    private static String message(Throwable t) {
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getClass().getSimpleName() + ": " + t.getMessage();
    }
}
