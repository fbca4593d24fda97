package io.etl.kafka.sink.internal;

import io.etl.core.config.Durations;
import io.etl.core.error.ConfigException;
import io.etl.kafka.common.internal.AdminSettings;
import io.etl.kafka.common.internal.TopicProbe;
import io.etl.kafka.sink.TopicSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
 * Creates the {@code topics} a sink lists, leaving existing ones untouched, and waits until every
 * partition of each has a leader; all within one deadline.
 */
final class TopicCreator {

    private static final Logger LOG = LoggerFactory.getLogger(TopicCreator.class);

    private TopicCreator() {}

    static void create(Map<String, Object> connection, List<TopicSpec> topics, Duration timeout, String path) {
        if (topics.isEmpty()) {
            return;
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        try (Admin admin = Admin.create(AdminSettings.properties(connection, timeout, "etl-topics-" + path))) {
            List<NewTopic> wanted = new ArrayList<>();
            for (TopicSpec t : topics) {
                wanted.add(new NewTopic(
                                t.name(),
                                Optional.ofNullable(t.partitions()),
                                Optional.ofNullable(t.replicationFactor()).map(Integer::shortValue))
                        .configs(t.configs()));
            }
            Map<String, KafkaFuture<Void>> results = admin.createTopics(
                            wanted, new CreateTopicsOptions().timeoutMs(AdminSettings.millis(timeout)))
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
                                path + ".topics[" + i + "]",
                                "cannot create topic '" + name + "': "
                                        + e.getCause().getMessage(),
                                e.getCause());
                    }
                }
            }
            for (int i = 0; i < topics.size(); i++) {
                awaitLeaders(admin, topics.get(i).name(), deadline, path + ".topics[" + i + "]", timeout);
            }
        } catch (TimeoutException e) {
            throw ConfigException.of(
                    path + ".topics",
                    "topic creation did not finish within startup_timeout " + Durations.format(timeout),
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ConfigException.of(path + ".topics", "interrupted while creating topics", e);
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
                        path, "topic '" + topic + "' has partitions without a leader after startup_timeout " + timeout);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
        }
    }

    private static long remaining(long deadline) {
        return Math.max(0, deadline - System.nanoTime());
    }
}
