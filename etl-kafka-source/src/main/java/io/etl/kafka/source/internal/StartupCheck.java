package io.etl.kafka.source.internal;

import io.etl.core.config.Durations;
import io.etl.core.error.ConfigException;
import io.etl.core.error.FatalException;
import io.etl.kafka.common.internal.ConnectivityCheck;
import io.etl.kafka.common.internal.SharedClusterProbe;
import io.etl.kafka.source.KafkaSourceConfig;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Before the consumer subscribes: can the brokers be reached and authenticated within
 * {@code startup_timeout} ({@link ConnectivityCheck}), and do the configured topics exist? A consumer
 * would otherwise log "disconnected" for ever against a wrong port or protocol, or wait silently for a
 * topic that is not there.
 */
final class StartupCheck {

    private StartupCheck() {}

    /**
     * @param connection bootstrap and security client properties
     * @param path       where problems point ({@code source.<name>.kafka})
     * @param runId      the pipeline run: the source shares the cluster check with the run's sinks
     * @throws ConfigException when the brokers cannot be reached or refuse the credentials, or a topic is
     *                         missing
     */
    static void run(KafkaSourceConfig config, Map<String, Object> connection, String path, String runId) {
        long deadline = System.nanoTime() + config.startupTimeout().toNanos();
        ConnectivityCheck check = ConnectivityCheck.of(connection, path)
                .timeout(config.startupTimeout())
                .sharedWithin(runId);
        if (config.security() != null) {
            config.security().principal().ifPresent(check::principal);
        }
        check.run();
        if (!config.topics().isEmpty()) {
            checkTopics(config, connection, path, deadline, runId);
        }
    }

    private static void checkTopics(
            KafkaSourceConfig config, Map<String, Object> connection, String path, long deadline, String runId) {
        int ms = (int)
                Math.max(1, Math.min(Integer.MAX_VALUE, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        Map<String, Object> props = new HashMap<>(connection);
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, ms);
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, ms);
        props.put(AdminClientConfig.CLIENT_ID_CONFIG, "etl-check-" + path);
        List<String> missing = new ArrayList<>();
        // the connectivity check just reached these brokers: reuse its client when it is shared
        SharedClusterProbe probe = runId == null ? null : SharedClusterProbe.lease(runId, adminProperties(props));
        try (Admin own = probe == null ? Admin.create(props) : null) {
            Admin admin = probe == null ? own : probe.admin();
            Map<String, KafkaFuture<TopicDescription>> futures = admin.describeTopics(
                            config.topics(), new DescribeTopicsOptions().timeoutMs(ms))
                    .topicNameValues();
            for (Map.Entry<String, KafkaFuture<TopicDescription>> e : futures.entrySet()) {
                try {
                    e.getValue().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (ExecutionException x) {
                    Throwable cause = x.getCause();
                    if (cause instanceof UnknownTopicOrPartitionException) {
                        missing.add(e.getKey());
                    } else if (cause instanceof AuthorizationException) {
                        throw ConfigException.of(
                                path + ".topics",
                                "not authorized to describe topic '" + e.getKey() + "' on brokers " + config.brokers()
                                        + ": " + cause.getMessage(),
                                cause);
                    } else {
                        throw ConfigException.of(
                                path + ".topics",
                                "describing topic '" + e.getKey() + "' on brokers " + config.brokers() + " failed: "
                                        + cause,
                                cause);
                    }
                } catch (TimeoutException t) {
                    throw ConfigException.of(
                            path + ".topics",
                            "could not describe topic '" + e.getKey() + "' on brokers " + config.brokers() + " within "
                                    + Durations.format(config.startupTimeout()),
                            t);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FatalException("interrupted while checking topics on brokers " + config.brokers(), e);
        } finally {
            if (probe != null) {
                probe.release();
            }
        }
        if (!missing.isEmpty()) {
            throw ConfigException.of(
                    path + ".topics",
                    (missing.size() == 1 ? "topic '" : "topics '")
                            + String.join("', '", missing.stream().sorted().toList()) + "' not found on brokers "
                            + config.brokers());
        }
    }

    /** The admin client properties the connectivity check derived from the same connection settings. */
    private static Properties adminProperties(Map<String, Object> props) {
        Properties admin = new Properties();
        for (String key : AdminClientConfig.configNames()) {
            Object value = props.get(key);
            if (value != null) {
                admin.put(key, value);
            }
        }
        return admin;
    }
}
