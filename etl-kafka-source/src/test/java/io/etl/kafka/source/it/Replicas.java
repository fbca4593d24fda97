package io.etl.kafka.source.it;

import static org.awaitility.Awaitility.await;

import io.etl.testkit.KafkaTestCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.utils.Utils;

/** What the broker fault tests ask a replicated cluster: leaders, in-sync replicas, a group's coordinator. */
final class Replicas {

    private Replicas() {}

    /** The broker leading {@code partition} of {@code topic}. */
    static int leaderOf(KafkaTestCluster cluster, String topic, int partition) {
        return describe(cluster, topic).partitions().get(partition).leader().id();
    }

    /** The broker coordinating {@code group}. */
    static int coordinatorOf(KafkaTestCluster cluster, String group) {
        try (Admin admin = cluster.newAdmin()) {
            return admin.describeConsumerGroups(Set.of(group))
                    .all()
                    .get(30, TimeUnit.SECONDS)
                    .get(group)
                    .coordinator()
                    .id();
        } catch (Exception e) {
            throw new IllegalStateException("cannot describe group " + group, e);
        }
    }

    /**
     * The broker that will coordinate {@code group}: the leader of its partition of {@code __consumer_offsets}
     * ({@code abs(hashCode) % partitions}, as the brokers place a group), creating that topic first if no group used
     * the cluster yet.
     */
    static int futureCoordinatorOf(KafkaTestCluster cluster, String group, int offsetsPartitions) {
        cluster.committedOffsets(group); // finding the coordinator creates __consumer_offsets
        int partition = Utils.abs(group.hashCode()) % offsetsPartitions;
        int[] leader = {-1};
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(100))
                .ignoreExceptions()
                .until(() -> {
                    leader[0] = leaderOf(cluster, "__consumer_offsets", partition);
                    return leader[0] >= 0;
                });
        return leader[0];
    }

    /**
     * Creates {@code topic} with replication factor 3 over {@code brokers} and {@code broker} as the leader of its
     * partition 0, and waits until every partition's leader answers.
     */
    static void createLedBy(KafkaTestCluster cluster, String topic, int partitions, List<Integer> brokers, int broker) {
        int first = brokers.indexOf(broker);
        Map<Integer, List<Integer>> assignment = new HashMap<>();
        for (int p = 0; p < partitions; p++) {
            List<Integer> replicas = new ArrayList<>();
            for (int r = 0; r < 3; r++) {
                replicas.add(brokers.get((first + p + r) % brokers.size()));
            }
            assignment.put(p, replicas);
        }
        try (Admin admin = cluster.newAdmin()) {
            admin.createTopics(List.of(new NewTopic(topic, assignment))).all().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("cannot create " + topic, e);
        }
        // a leader named in the metadata may not take writes yet: list offsets, which goes to each leader
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(100))
                .ignoreExceptions()
                .until(() -> cluster.endOffsets(topic).size() == partitions && leaderOf(cluster, topic, 0) == broker);
    }

    /** Waits until every partition of {@code topic} has all its replicas in sync again. */
    static void awaitFullIsr(KafkaTestCluster cluster, String topic) {
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(200))
                .ignoreExceptions()
                .until(() -> {
                    for (TopicPartitionInfo p : describe(cluster, topic).partitions()) {
                        if (p.isr().size() < p.replicas().size()) {
                            return false;
                        }
                    }
                    return true;
                });
    }

    /** Waits until the controller has taken {@code broker} out of every in-sync set of {@code topic}. */
    static void awaitOutOfIsr(KafkaTestCluster cluster, String topic, int broker) {
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(100))
                .ignoreExceptions()
                .until(() -> describe(cluster, topic).partitions().stream()
                        .noneMatch(p -> p.isr().stream().anyMatch(n -> n.id() == broker)));
    }

    /** Whether {@code committed} reaches {@code bound} in every partition of it. */
    static boolean committedPast(Map<TopicPartition, Long> committed, Map<TopicPartition, Long> bound) {
        return bound.entrySet().stream().allMatch(e -> committed.getOrDefault(e.getKey(), 0L) >= e.getValue());
    }

    static TopicDescription describe(KafkaTestCluster cluster, String topic) {
        try (Admin admin = cluster.newAdmin()) {
            return admin.describeTopics(Set.of(topic))
                    .allTopicNames()
                    .get(30, TimeUnit.SECONDS)
                    .get(topic);
        } catch (Exception e) {
            throw new IllegalStateException("cannot describe " + topic, e);
        }
    }
}
