package io.etl.runtime.tools;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

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
     * without one is refused), or as they are when the timeout passes first. A broker that does not know a topic yet
     * (the creation has not reached its metadata) is asked again until then too.
     */
    static Map<String, TopicDescription> awaitLeaders(Cluster c, List<String> topics) {
        long deadline = System.nanoTime() + c.timeout().toNanos();
        while (true) {
            boolean last = System.nanoTime() > deadline;
            KafkaFuture<Map<String, TopicDescription>> asked =
                    c.admin().describeTopics(topics).allTopicNames();
            Map<String, TopicDescription> described;
            try {
                described = c.get(asked, "describe " + topics);
            } catch (ToolException e) {
                if (last || !unknownTopic(asked)) {
                    throw e;
                }
                described = null;
            }
            if (described != null) {
                boolean led = described.values().stream()
                        .allMatch(d -> d.partitions().stream().allMatch(p -> p.leader() != null));
                if (led || last) {
                    return described;
                }
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(LEADER_POLL.toMillis()));
        }
    }

    /** Whether {@code answer} failed because a broker did not know the topic (yet). */
    private static boolean unknownTopic(KafkaFuture<?> answer) {
        try {
            answer.getNow(null);
            return false;
        } catch (ExecutionException e) {
            return e.getCause() instanceof UnknownTopicOrPartitionException;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
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
