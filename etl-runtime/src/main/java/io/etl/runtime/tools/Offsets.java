package io.etl.runtime.tools;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;

/** Offsets and partition leaders, asked of the cluster's admin client. */
final class Offsets {

    private static final Duration LEADER_POLL = Duration.ofMillis(100);

    private Offsets() {}

    /** The offset {@code spec} gives each partition (earliest, latest, or the first at a timestamp; -1: none). */
    static Map<TopicPartition, Long> list(Cluster c, Collection<TopicPartition> partitions, OffsetSpec spec) {
        Map<TopicPartition, OffsetSpec> asked = new HashMap<>();
        partitions.forEach(p -> asked.put(p, spec));
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> found =
                c.get(c.admin().listOffsets(asked).all(), "read the offsets of " + topics(partitions));
        Map<TopicPartition, Long> out = new HashMap<>();
        found.forEach((p, info) -> out.put(p, info.offset()));
        return out;
    }

    /**
     * The descriptions of freshly created {@code topics} once every partition has a leader (a write to a partition
     * without one is refused), or as they are when the timeout passes first.
     */
    static Map<String, TopicDescription> awaitLeaders(Cluster c, List<String> topics) {
        long deadline = System.nanoTime() + c.timeout().toNanos();
        while (true) {
            Map<String, TopicDescription> described =
                    c.get(c.admin().describeTopics(topics).allTopicNames(), "describe " + topics);
            boolean led = described.values().stream()
                    .allMatch(d -> d.partitions().stream().allMatch(p -> p.leader() != null));
            if (led || System.nanoTime() > deadline) {
                return described;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(LEADER_POLL.toMillis()));
        }
    }

    private static String topics(Collection<TopicPartition> partitions) {
        return partitions.stream()
                .map(TopicPartition::topic)
                .distinct()
                .sorted()
                .toList()
                .toString();
    }
}
