package io.etl.kafka.source.it;

import io.etl.testkit.KafkaTestCluster;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;

/**
 * The input offsets a fault may write twice: per partition, from the offset committed when the fault struck
 * to the end offset of the input once it was over (a replay restarts at the committed offset; a retry only
 * rewrites what was read while the fault lasted). A duplicate in the output is explained only when its
 * order lies in one of these ranges.
 */
final class ReplayWindow {

    private final int partitions;
    private final List<long[]> ranges = new ArrayList<>();
    private Map<TopicPartition, Long> openedAt = Map.of();

    ReplayWindow(int partitions) {
        this.partitions = partitions;
    }

    /** Notes what {@code group} has committed as the start of a window: call it as the fault strikes. */
    void open(KafkaTestCluster kafka, String group) {
        openedAt = kafka.committedOffsets(group);
    }

    /**
     * Ends the window opened last at the end offsets {@code input} has now: call it once the fault is over
     * and everything read during it was retried.
     *
     * @return the number of offsets the window covers
     */
    long close(KafkaTestCluster kafka, String input) {
        Map<TopicPartition, Long> end = kafka.endOffsets(input);
        long size = 0;
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            long from = openedAt.getOrDefault(e.getKey(), 0L);
            ranges.add(new long[] {e.getKey().partition(), from, e.getValue()});
            size += e.getValue() - from;
        }
        return size;
    }

    /** The ids written more than once whose input offset lies in none of the ranges. */
    List<String> unexplainedDuplicates(Map<String, Integer> counts) {
        List<String> unexplained = new ArrayList<>();
        counts.forEach((id, n) -> {
            if (n > 1 && !covers(Integer.parseInt(id.substring(id.indexOf('-') + 1)))) {
                unexplained.add(id + " x" + n);
            }
        });
        return unexplained;
    }

    private boolean covers(int order) {
        int partition = order % partitions;
        long offset = order / partitions;
        for (long[] r : ranges) {
            if (r[0] == partition && offset >= r[1] && offset < r[2]) {
                return true;
            }
        }
        return false;
    }

    /** The ranges, for assertion messages. */
    @Override
    public String toString() {
        Map<Long, List<String>> byPartition = new HashMap<>();
        for (long[] r : ranges) {
            byPartition.computeIfAbsent(r[0], p -> new ArrayList<>()).add("[" + r[1] + "," + r[2] + ")");
        }
        return byPartition.toString();
    }
}
