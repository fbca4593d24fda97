package io.etl.kafka.source.internal;

import io.etl.core.error.RetryLetter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The retry topics a source reads besides its own, and the partitions of them that wait: a record whose
 * {@value RetryLetter#DUE_HEADER} lies ahead is not handed over; its partition is sought back to it and paused until
 * then, while every other partition goes on. Records of a retry topic are appended in the order they failed, so the
 * first one not due holds back the rest of its partition, which are due later. Used on the pipeline thread; the size
 * may be read from any thread (a gauge).
 */
final class RetryDelays {

    private static final Logger LOG = LoggerFactory.getLogger(RetryDelays.class);

    private final String source;
    private final Set<String> topics;
    private final List<String> retryTopics;
    /** Partitions paused until their next record is due, epoch milliseconds. */
    private final Map<TopicPartition, Long> waiting = new ConcurrentHashMap<>();

    RetryDelays(String source, List<String> retryTopics) {
        this.source = source;
        this.topics = Set.copyOf(retryTopics);
        this.retryTopics = List.copyOf(retryTopics);
    }

    /** {@code own} and then the retry topics, which the source subscribes to besides its own. */
    List<String> withRetryTopics(List<String> own) {
        List<String> all = new ArrayList<>(own);
        all.addAll(retryTopics);
        return all;
    }

    /**
     * Whether {@code r} must wait: it is in a retry topic and not due at {@code nowMillis}. Its partition is then
     * sought back to it and paused, so the rest of it in this poll is not handed over either.
     */
    boolean holdsBack(ConsumerRecord<byte[], byte[]> r, Consumer<byte[], byte[]> consumer, long nowMillis) {
        if (!topics.contains(r.topic())) {
            return false;
        }
        TopicPartition tp = new TopicPartition(r.topic(), r.partition());
        if (waiting.containsKey(tp)) {
            return true; // an earlier record of this poll is not due: nor is this one
        }
        long due = dueOf(r);
        if (due <= nowMillis) {
            return false;
        }
        consumer.seek(tp, r.offset());
        consumer.pause(List.of(tp));
        waiting.put(tp, due);
        LOG.debug("source '{}': {} waits {} ms for {}", source, tp, due - nowMillis, r.offset());
        return true;
    }

    /**
     * The waiting partitions whose record is due at {@code nowMillis}, no longer waiting; partitions no longer
     * {@code assigned} are forgotten.
     */
    List<TopicPartition> due(long nowMillis, Collection<TopicPartition> assigned) {
        List<TopicPartition> due = new ArrayList<>();
        for (Iterator<Map.Entry<TopicPartition, Long>> it = waiting.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<TopicPartition, Long> e = it.next();
            if (!assigned.contains(e.getKey())) {
                it.remove();
            } else if (e.getValue() <= nowMillis) {
                it.remove();
                due.add(e.getKey());
            }
        }
        return due;
    }

    /** Whether {@code tp} waits for its next record to be due. */
    boolean waiting(TopicPartition tp) {
        return waiting.containsKey(tp);
    }

    /** {@code partitions} without those that wait. */
    List<TopicPartition> resumable(Collection<TopicPartition> partitions) {
        if (waiting.isEmpty()) {
            return new ArrayList<>(partitions);
        }
        return partitions.stream().filter(tp -> !waiting.containsKey(tp)).toList();
    }

    /** How many partitions wait. */
    int size() {
        return waiting.size();
    }

    /** A record's due time, epoch milliseconds; 0 (due) without a readable {@value RetryLetter#DUE_HEADER}. */
    static long dueOf(ConsumerRecord<byte[], byte[]> r) {
        Header h = r.headers().lastHeader(RetryLetter.DUE_HEADER);
        if (h == null || h.value() == null) {
            return 0;
        }
        try {
            return Long.parseLong(new String(h.value(), StandardCharsets.UTF_8).trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
