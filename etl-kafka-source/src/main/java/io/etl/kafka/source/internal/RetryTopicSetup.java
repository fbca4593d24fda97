package io.etl.kafka.source.internal;

import io.etl.core.config.RetrySection;
import io.etl.core.config.RetryTopicsConfig;
import io.etl.core.error.ConfigException;
import io.etl.core.error.FatalException;
import io.etl.core.metrics.EtlMetrics;
import io.etl.core.source.SourceContext;
import io.etl.kafka.common.internal.AdminSettings;
import io.etl.kafka.common.internal.SharedClusterProbe;
import io.etl.kafka.common.internal.TopicCreator;
import io.etl.kafka.common.internal.TopicProbe;
import io.etl.kafka.source.KafkaSourceConfig;
import io.micrometer.core.instrument.Gauge;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/**
 * The retry topics of a source's topics: named after each topic by the {@code retry} section's levels, they are read by
 * the same consumer, so they must exist before it subscribes (a topic created later would only be seen at the next
 * metadata refresh). Missing ones are created like the topic they serve: as many partitions, the same replication
 * factor; existing ones are left as they are.
 */
final class RetryTopicSetup {

    private RetryTopicSetup() {}

    /**
     * The run's retry levels, when its pipeline has retry topics, and the consumer settings they need: a retry
     * partition resumes when its record is due, so a fetch in flight for the other partitions must not hold it back for
     * long ({@code fetch.max.wait.ms} lowered to {@code poll_timeout} unless the passthrough sets it).
     *
     * @return null without retry topics
     * @throws ConfigException for a source subscribed by pattern: retry topics are named after the topics listed
     */
    static RetryTopicsConfig prepare(
            SourceContext context, KafkaSourceConfig config, String path, Map<String, Object> consumerProperties) {
        RetryTopicsConfig retry = context.run().find(RetryTopicsConfig.class).orElse(null);
        if (retry == null) {
            return null;
        }
        if (config.topics().isEmpty()) {
            throw ConfigException.of(
                    path + ".topic_pattern",
                    "a pipeline with retry topics needs its topics listed (topics: [...]): the retry topics are named"
                            + " after them and read with them");
        }
        consumerProperties.putIfAbsent(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, (int)
                Math.min(500, config.pollTimeout().toMillis()));
        return retry;
    }

    /**
     * The retry topics of {@code config}'s topics, created first when missing if {@code create}, with the gauge of
     * their partitions that wait.
     *
     * @throws ConfigException naming a retry topic that cannot be described or created
     */
    static RetryDelays open(
            String source,
            KafkaSourceConfig config,
            RetryTopicsConfig retry,
            String path,
            SourceContext context,
            boolean create) {
        if (create) {
            ensure(config, retry, ConsumerSettings.connection(config, path), path, context.runId());
        }
        RetryDelays delays = new RetryDelays(source, names(config, retry));
        Gauge.builder(EtlMetrics.SOURCE_RETRY_WAITING, delays, RetryDelays::size)
                .tags(context.tags())
                .register(context.meterRegistry());
        return delays;
    }

    /** The retry topics of {@code config}'s topics, in order. */
    static List<String> names(KafkaSourceConfig config, RetryTopicsConfig retry) {
        Set<String> names = new LinkedHashSet<>();
        for (String topic : config.topics()) {
            names.addAll(retry.topicsFor(topic));
        }
        names.removeAll(config.topics());
        return List.copyOf(names);
    }

    /**
     * Creates the retry topics that do not exist, within {@code startup_timeout}.
     *
     * @throws ConfigException naming the topic that cannot be described or created
     */
    static void ensure(
            KafkaSourceConfig config,
            RetryTopicsConfig retry,
            Map<String, Object> connection,
            String path,
            String runId) {
        Duration timeout = config.startupTimeout();
        long deadline = System.nanoTime() + timeout.toNanos();
        Properties props = AdminSettings.properties(connection, timeout, "etl-retry-topics-" + path);
        SharedClusterProbe probe = runId == null ? null : SharedClusterProbe.lease(runId, props);
        try (Admin own = probe == null ? Admin.create(props) : null) {
            Admin admin = probe == null ? own : probe.admin();
            TopicProbe topics = TopicProbe.of(admin, deadline);
            Map<String, TopicProbe.Topic> mains = topics.describe(config.topics(), false);
            List<NewTopic> missing = new ArrayList<>();
            List<String> paths = new ArrayList<>();
            for (String main : config.topics()) {
                TopicProbe.Topic served = mains.get(main);
                for (TopicProbe.Topic t :
                        topics.describe(retry.topicsFor(main), false).values()) {
                    if (t.exists() || config.topics().contains(t.name())) {
                        continue;
                    }
                    if (!t.missing()) {
                        throw StartupCheck.notDescribed(config, RetrySection.NAME + ".topics", t);
                    }
                    missing.add(new NewTopic(t.name(), partitions(served), replication(served)));
                    paths.add(RetrySection.NAME + ".topics");
                }
            }
            TopicCreator.create(admin, missing, paths, deadline, path, timeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FatalException("interrupted while checking the retry topics on brokers " + config.brokers(), e);
        } finally {
            if (probe != null) {
                probe.release();
            }
        }
    }

    /** The number of partitions of {@code topic}, or the broker's default when unknown. */
    private static Optional<Integer> partitions(TopicProbe.Topic topic) {
        return topic.exists() ? Optional.of(topic.partitions()) : Optional.empty();
    }

    /** The replication factor of {@code topic}'s first partition, or the broker's default when unknown. */
    private static Optional<Short> replication(TopicProbe.Topic topic) {
        if (!topic.exists() || topic.description().partitions().isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(
                (short) topic.description().partitions().get(0).replicas().size());
    }
}
