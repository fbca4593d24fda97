package io.etl.kafka.source.internal;

import io.etl.core.config.Durations;
import io.etl.core.error.ConfigException;
import io.etl.core.error.FatalException;
import io.etl.kafka.common.internal.AdminSettings;
import io.etl.kafka.common.internal.ClientPrincipal;
import io.etl.kafka.common.internal.ConnectivityCheck;
import io.etl.kafka.common.internal.SharedClusterProbe;
import io.etl.kafka.common.internal.TopicProbe;
import io.etl.kafka.source.KafkaSourceConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.errors.AuthorizationException;

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
        ConnectivityCheck.of(connection, path)
                .timeout(config.startupTimeout())
                .principal(ClientPrincipal.of(config.security(), config.consumer()))
                .sharedWithin(runId)
                .run();
        if (!config.topics().isEmpty()) {
            checkTopics(config, connection, path, deadline, runId);
        }
    }

    private static void checkTopics(
            KafkaSourceConfig config, Map<String, Object> connection, String path, long deadline, String runId) {
        Properties props = AdminSettings.properties(
                connection, Duration.ofNanos(deadline - System.nanoTime()), "etl-check-" + path);
        List<String> missing = new ArrayList<>();
        // the connectivity check just reached these brokers: reuse its client when it is shared
        SharedClusterProbe probe = runId == null ? null : SharedClusterProbe.lease(runId, props);
        try (Admin own = probe == null ? Admin.create(props) : null) {
            Admin admin = probe == null ? own : probe.admin();
            for (TopicProbe.Topic topic : TopicProbe.of(admin, deadline)
                    .describe(config.topics(), false)
                    .values()) {
                if (topic.missing()) {
                    missing.add(topic.name());
                } else if (!topic.exists()) {
                    throw notDescribed(config, path, topic);
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

    /** Why a topic that may exist could not be described: not authorized, no answer in time, or another error. */
    static ConfigException notDescribed(KafkaSourceConfig config, String path, TopicProbe.Topic topic) {
        Throwable cause = topic.failure();
        String message;
        if (topic.timedOut()) {
            message = "could not describe topic '" + topic.name() + "' on brokers " + config.brokers() + " within "
                    + Durations.format(config.startupTimeout());
        } else if (cause instanceof AuthorizationException) {
            message = "not authorized to describe topic '" + topic.name() + "' on brokers " + config.brokers() + ": "
                    + cause.getMessage();
        } else {
            message = "describing topic '" + topic.name() + "' on brokers " + config.brokers() + " failed: " + cause;
        }
        return ConfigException.of(path + ".topics", message, cause);
    }
}
