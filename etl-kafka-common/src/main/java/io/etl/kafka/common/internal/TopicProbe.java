package io.etl.kafka.common.internal;

import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * What the brokers say about topics, asked through a connected admin client and answered by a deadline: whether
 * each topic exists, its partitions and their leaders, what the client may do with it, and its effective
 * {@code max.message.bytes}. It reports and decides nothing: each caller words the answer for its own key path.
 *
 * <pre>{@code
 * TopicProbe.Topic topic = TopicProbe.of(admin, Duration.ofSeconds(5)).describe("orders");
 * if (topic.missing()) { ... }
 * }</pre>
 */
public final class TopicProbe {

    private final Admin admin;
    private final long deadline;

    private TopicProbe(Admin admin, long deadline) {
        this.admin = admin;
        this.deadline = deadline;
    }

    /** A probe whose every answer is due by {@code deadline} ({@link System#nanoTime()}). */
    public static TopicProbe of(Admin admin, long deadline) {
        return new TopicProbe(admin, deadline);
    }

    /** A probe whose every answer is due within {@code timeout} from now. */
    public static TopicProbe of(Admin admin, Duration timeout) {
        return new TopicProbe(admin, System.nanoTime() + timeout.toNanos());
    }

    /**
     * What the brokers say about one topic.
     *
     * @throws InterruptedException when interrupted while waiting
     */
    public Topic describe(String name) throws InterruptedException {
        return describe(List.of(name), false).get(name);
    }

    /**
     * What the brokers say about each topic, in one request.
     *
     * @param authorizedOperations whether to ask for the operations the client may perform on each topic
     * @throws InterruptedException when interrupted while waiting
     */
    public Map<String, Topic> describe(Collection<String> names, boolean authorizedOperations)
            throws InterruptedException {
        Set<String> distinct = new LinkedHashSet<>(names);
        Map<String, Topic> topics = new LinkedHashMap<>();
        if (distinct.isEmpty()) {
            return topics;
        }
        Map<String, KafkaFuture<TopicDescription>> futures = admin.describeTopics(
                        distinct,
                        new DescribeTopicsOptions()
                                .includeAuthorizedOperations(authorizedOperations)
                                .timeoutMs(AdminSettings.millisUntil(deadline)))
                .topicNameValues();
        for (String name : distinct) {
            try {
                topics.put(name, new Topic(name, await(futures.get(name)), null));
            } catch (ExecutionException e) {
                topics.put(name, new Topic(name, null, cause(e)));
            } catch (TimeoutException e) {
                topics.put(name, new Topic(name, null, e));
            }
        }
        return topics;
    }

    /**
     * The effective {@code max.message.bytes} of one topic (its own setting, else the broker default).
     *
     * @throws InterruptedException when interrupted while waiting
     */
    public MessageLimit maxMessageBytes(String topic) throws InterruptedException {
        return maxMessageBytes(List.of(topic)).get(topic);
    }

    /**
     * The effective {@code max.message.bytes} of each topic, in one request.
     *
     * @throws InterruptedException when interrupted while waiting
     */
    public Map<String, MessageLimit> maxMessageBytes(Collection<String> topics) throws InterruptedException {
        Map<String, ConfigResource> resources = new LinkedHashMap<>();
        topics.forEach(t -> resources.computeIfAbsent(t, n -> new ConfigResource(ConfigResource.Type.TOPIC, n)));
        Map<String, MessageLimit> limits = new LinkedHashMap<>();
        if (resources.isEmpty()) {
            return limits;
        }
        Map<ConfigResource, KafkaFuture<Config>> futures = admin.describeConfigs(
                        resources.values(), new DescribeConfigsOptions().timeoutMs(AdminSettings.millisUntil(deadline)))
                .values();
        for (Map.Entry<String, ConfigResource> e : resources.entrySet()) {
            limits.put(e.getKey(), limit(e.getKey(), futures.get(e.getValue())));
        }
        return limits;
    }

    private MessageLimit limit(String topic, KafkaFuture<Config> future) throws InterruptedException {
        ConfigEntry entry;
        try {
            Config config = await(future);
            entry = config == null ? null : config.get(TopicConfig.MAX_MESSAGE_BYTES_CONFIG);
        } catch (ExecutionException e) {
            return new MessageLimit(topic, OptionalLong.empty(), null, cause(e));
        } catch (TimeoutException e) {
            return new MessageLimit(topic, OptionalLong.empty(), null, e);
        }
        if (entry == null || entry.value() == null) {
            return new MessageLimit(topic, OptionalLong.empty(), null, null);
        }
        try {
            return new MessageLimit(topic, OptionalLong.of(Long.parseLong(entry.value())), entry.source(), null);
        } catch (NumberFormatException e) {
            return new MessageLimit(topic, OptionalLong.empty(), entry.source(), e);
        }
    }

    private <V> V await(KafkaFuture<V> future) throws ExecutionException, TimeoutException, InterruptedException {
        return future.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    }

    private static Throwable cause(ExecutionException e) {
        return e.getCause() == null ? e : e.getCause();
    }

    /**
     * One topic as the brokers described it, or why they did not.
     *
     * @param name        the topic
     * @param description what the brokers said; {@code null} when they did not answer
     * @param failure     why there is no description: the client's error, or a {@link TimeoutException} (the JDK's)
     *                    when the deadline passed first; {@code null} with a description
     */
    public record Topic(String name, TopicDescription description, Throwable failure) {

        /** Whether the brokers described it. */
        public boolean exists() {
            return description != null;
        }

        /** Whether the brokers said that it does not exist (or that the client may not know of it). */
        public boolean missing() {
            return failure instanceof UnknownTopicOrPartitionException;
        }

        /** Whether the deadline passed before the brokers answered. */
        public boolean timedOut() {
            return failure instanceof TimeoutException;
        }

        /** Its number of partitions; 0 when it was not described. */
        public int partitions() {
            return description == null ? 0 : description.partitions().size();
        }

        /** Whether it was described with a leader for every partition. */
        public boolean leadersElected() {
            return description != null
                    && description.partitions().stream()
                            .allMatch(p -> p.leader() != null && !p.leader().isEmpty());
        }

        /**
         * The operations the client may perform on it, when asked for and told; {@code null} when the brokers did
         * not say.
         */
        public Set<AclOperation> authorizedOperations() {
            return description == null ? null : description.authorizedOperations();
        }
    }

    /**
     * A topic's effective {@code max.message.bytes}, or why it is not known.
     *
     * @param topic   the topic
     * @param bytes   the limit; empty when the brokers did not tell it or could not be asked
     * @param source  where the limit comes from (set on the topic, the broker's setting, the default), with a limit
     * @param failure why the brokers could not be asked: the client's error, a {@link TimeoutException} (the JDK's)
     *                when the deadline passed first, or a value that is not a number; {@code null} otherwise
     */
    public record MessageLimit(String topic, OptionalLong bytes, ConfigEntry.ConfigSource source, Throwable failure) {

        /** Whether the deadline passed before the brokers answered. */
        public boolean timedOut() {
            return failure instanceof TimeoutException;
        }
    }
}
