package io.etl.kafka.common.internal;

import io.etl.core.config.Durations;
import io.etl.core.error.ConfigException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates topics that do not exist yet, leaving existing ones untouched, and waits until every partition of each has
 * a leader; all within one deadline. A sink creates the topics its section lists, a route the topics it opens, a
 * source its retry topics.
 *
 * <pre>{@code
 * TopicCreator.create(connection, List.of(new NewTopic("orders-eu", Optional.of(6), Optional.empty())),
 *         List.of("sinks.eu.kafka.topics[0]"), Duration.ofSeconds(30), "sinks.eu.kafka");
 * }</pre>
 */
public final class TopicCreator {

    private static final Logger LOG = LoggerFactory.getLogger(TopicCreator.class);

    private TopicCreator() {}

    /**
     * Creates {@code topics} with an admin client of its own.
     *
     * @param paths   where a problem with {@code topics.get(i)} points, one per topic
     * @param timeout bound of the whole creation
     * @param path    the section's path, which names the admin client and a creation that times out
     * @throws ConfigException naming the topic that cannot be created, or the timeout
     */
    public static void create(
            Map<String, Object> connection, List<NewTopic> topics, List<String> paths, Duration timeout, String path) {
        if (topics.isEmpty()) {
            return;
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        try (Admin admin = Admin.create(AdminSettings.properties(connection, timeout, "etl-topics-" + path))) {
            create(admin, topics, paths, deadline, path, timeout);
        }
    }

    /**
     * Creates {@code topics} with {@code admin}, by {@code deadline} ({@link System#nanoTime()}).
     *
     * @param paths   where a problem with {@code topics.get(i)} points, one per topic
     * @param path    where a creation that does not finish in time points
     * @param timeout the bound that {@code deadline} came from, for the message
     * @throws ConfigException naming the topic that cannot be created, or the timeout
     */
    public static void create(
            Admin admin, List<NewTopic> topics, List<String> paths, long deadline, String path, Duration timeout) {
        try {
            Map<String, KafkaFuture<Void>> results = admin.createTopics(
                            topics, new CreateTopicsOptions().timeoutMs(AdminSettings.millisUntil(deadline)))
                    .values();
            for (int i = 0; i < topics.size(); i++) {
                String name = topics.get(i).name();
                try {
                    results.get(name).get(remaining(deadline), TimeUnit.NANOSECONDS);
                    LOG.info("{}: created topic '{}'", path, name);
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof TopicExistsException) {
                        LOG.info("{}: topic '{}' exists; left as it is", path, name);
                    } else {
                        throw ConfigException.of(
                                paths.get(i),
                                "cannot create topic '" + name + "': "
                                        + e.getCause().getMessage(),
                                e.getCause());
                    }
                }
            }
            for (int i = 0; i < topics.size(); i++) {
                awaitLeaders(admin, topics.get(i).name(), deadline, paths.get(i), timeout);
            }
        } catch (TimeoutException e) {
            throw ConfigException.of(
                    path, "topic creation did not finish within startup_timeout " + Durations.format(timeout), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ConfigException.of(path, "interrupted while creating topics", e);
        }
    }

    private static void awaitLeaders(Admin admin, String topic, long deadline, String path, Duration timeout)
            throws InterruptedException, TimeoutException {
        TopicProbe probe = TopicProbe.of(admin, deadline);
        while (true) {
            TopicProbe.Topic described = probe.describe(topic);
            if (described.leadersElected()) {
                return;
            }
            if (described.timedOut()) {
                throw (TimeoutException) described.failure();
            }
            if (!described.exists() && !described.missing()) {
                throw ConfigException.of(
                        path,
                        "cannot describe topic '" + topic + "': "
                                + described.failure().getMessage(),
                        described.failure());
            }
            if (remaining(deadline) <= 0) {
                throw ConfigException.of(
                        path,
                        "topic '" + topic + "' has partitions without a leader after startup_timeout "
                                + Durations.format(timeout));
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
        }
    }

    private static long remaining(long deadline) {
        return Math.max(0, deadline - System.nanoTime());
    }
}
