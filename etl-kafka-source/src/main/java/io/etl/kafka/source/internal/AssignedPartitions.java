package io.etl.kafka.source.internal;

import io.etl.core.source.SourcePartition;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The partitions a source holds now, each with the {@link SourcePartition} made for it once. Only the rebalance
 * callbacks change it, so offsets asked for a partition that was revoked or lost in the meantime are dropped rather
 * than overwriting what the partition's new owner commits.
 */
final class AssignedPartitions {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaConsumerSource.class);

    private final String name;
    private final Map<TopicPartition, SourcePartition> assigned = new HashMap<>();
    private final Map<SourcePartition, TopicPartition> byPartition = new HashMap<>();

    /** @param name the source's name, for log lines */
    AssignedPartitions(String name) {
        this.name = name;
    }

    /** Takes {@code partitions} on; returns their {@link SourcePartition}s. */
    List<SourcePartition> add(Collection<TopicPartition> partitions) {
        List<SourcePartition> added = new ArrayList<>(partitions.size());
        for (TopicPartition tp : partitions) {
            SourcePartition sp = new SourcePartition(tp.topic(), tp.partition());
            assigned.put(tp, sp);
            byPartition.put(sp, tp);
            added.add(sp);
        }
        return added;
    }

    /** The {@link SourcePartition}s of {@code partitions}, held or not. */
    List<SourcePartition> of(Collection<TopicPartition> partitions) {
        List<SourcePartition> out = new ArrayList<>(partitions.size());
        for (TopicPartition tp : partitions) {
            SourcePartition sp = assigned.get(tp);
            out.add(sp != null ? sp : new SourcePartition(tp.topic(), tp.partition()));
        }
        return out;
    }

    /** Lets {@code partitions} go. */
    void release(Collection<TopicPartition> partitions) {
        for (TopicPartition tp : new HashSet<>(partitions)) {
            SourcePartition sp = assigned.remove(tp);
            if (sp != null) {
                byPartition.remove(sp);
            }
        }
    }

    /** The offsets of partitions still held; anything else belongs to another member now. */
    Map<TopicPartition, OffsetAndMetadata> heldOnly(Map<SourcePartition, Long> offsets) {
        Map<TopicPartition, OffsetAndMetadata> out = new HashMap<>(offsets.size() * 2);
        for (Map.Entry<SourcePartition, Long> e : offsets.entrySet()) {
            TopicPartition tp = byPartition.get(e.getKey());
            if (tp != null) {
                out.put(tp, new OffsetAndMetadata(e.getValue()));
            } else {
                LOG.debug("source '{}': not committing {} for {}: no longer assigned", name, e.getValue(), e.getKey());
            }
        }
        return out;
    }

    /** The entries of {@code offsets} that {@code commit} holds (those of partitions still held). */
    Map<SourcePartition, Long> sentOnly(
            Map<SourcePartition, Long> offsets, Map<TopicPartition, OffsetAndMetadata> commit) {
        if (commit.size() == offsets.size()) {
            return offsets;
        }
        Map<SourcePartition, Long> out = new HashMap<>(commit.size() * 2);
        for (Map.Entry<TopicPartition, OffsetAndMetadata> e : commit.entrySet()) {
            out.put(assigned.get(e.getKey()), e.getValue().offset());
        }
        return out;
    }

    Set<TopicPartition> topicPartitions() {
        return assigned.keySet();
    }

    boolean isEmpty() {
        return assigned.isEmpty();
    }

    int size() {
        return assigned.size();
    }
}
