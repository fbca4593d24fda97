package io.etl.kafka.source.it;

import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.TestRecord;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.TopicPartition;

/** What the delivery tests check on the brokers. */
final class Delivery {

    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    private Delivery() {
    }

    /** A name unique in this JVM run, for topics and groups. */
    static String unique(String prefix) {
        return prefix + "-" + Long.toString(System.nanoTime() % 1_000_000_000L, 36) + "-" + SEQUENCE.incrementAndGet();
    }

    /** Whether {@code group} has committed, for every partition of {@code topic}, the partition's end offset. */
    static boolean caughtUp(KafkaTestCluster kafka, String group, String topic) {
        Map<TopicPartition, Long> end = kafka.endOffsets(topic);
        Map<TopicPartition, Long> committed = kafka.committedOffsets(group);
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            long c = committed.getOrDefault(e.getKey(), 0L);
            if (c != e.getValue()) {
                return false;
            }
        }
        return true;
    }

    /** How often each id occurs in {@code topic}. */
    static Map<String, Integer> idCounts(KafkaTestCluster kafka, String topic) {
        return idCounts(kafka.readAll(topic));
    }

    static Map<String, Integer> idCounts(List<TestRecord> records) {
        Map<String, Integer> counts = new HashMap<>(records.size() * 2);
        for (TestRecord r : records) {
            counts.merge(Orders.idOf(r), 1, Integer::sum);
        }
        return counts;
    }

    /** Occurrences beyond the first, over all ids. */
    static long duplicates(Map<String, Integer> counts) {
        long d = 0;
        for (int c : counts.values()) {
            d += c - 1;
        }
        return d;
    }
}
