package io.etl.bench;

import io.etl.bench.impl.RaceTopics;
import io.etl.bench.orders.BenchOrders;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads every output topic from the start while a soak runs, and keeps what the end needs: which orders arrived
 * (once, twice or more, in the right topic), and the latency of each output since the last {@link #takeLatencies()}
 * (its {@code LogAppendTime} minus the {@link PacedInput#SENT_AT} header). Memory is a bit per order plus the
 * latencies of one sampling interval, so it can follow an hour at any rate.
 */
final class OutputAudit implements AutoCloseable {

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final List<TopicPartition> partitions = new ArrayList<>();
    private final Map<String, String> branchOf = new HashMap<>();
    private final Thread thread;
    private final BitSet seen = new BitSet();
    private final Map<TopicPartition, Long> positions = new ConcurrentHashMap<>();
    private final AtomicLong read = new AtomicLong();
    private final AtomicReference<RuntimeException> failure = new AtomicReference<>();
    private long duplicates;
    private long misrouted;
    private long[] latencies = new long[1024];
    private int latencyCount;
    private volatile boolean stopped;

    private OutputAudit(String bootstrap, RaceTopics topics) {
        Map<String, Object> props = new HashMap<>();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5_000);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "soak-audit");
        // while the sink's broker is down, retry every few seconds rather than log a refusal every second: a
        // latency is the append time minus the send time, so when the audit reads it does not change it
        props.put(ConsumerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 10_000);
        this.consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        List<String> outputs = topics.outputs();
        for (int b = 0; b < outputs.size(); b++) {
            branchOf.put(outputs.get(b), BenchOrders.BRANCHES[b]);
            for (int p = 0; p < RaceTopics.PARTITIONS; p++) {
                partitions.add(new TopicPartition(outputs.get(b), p));
            }
        }
        this.thread = new Thread(this::run, "soak-audit");
        this.thread.setDaemon(true);
    }

    /** Starts reading the outputs of {@code topics} on {@code bootstrap} from their beginning. */
    static OutputAudit start(String bootstrap, RaceTopics topics) {
        OutputAudit audit = new OutputAudit(bootstrap, topics);
        audit.thread.start();
        return audit;
    }

    private void run() {
        try {
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            while (!stopped) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    take(r);
                    positions.put(new TopicPartition(r.topic(), r.partition()), r.offset() + 1);
                }
            }
        } catch (RuntimeException e) {
            failure.compareAndSet(null, e);
        } finally {
            consumer.close(Duration.ofSeconds(5));
        }
    }

    private void take(ConsumerRecord<byte[], byte[]> r) {
        read.incrementAndGet();
        int order = Integer.parseInt(new String(r.key(), StandardCharsets.UTF_8).substring(4));
        long sentAt = PacedInput.sentAt(r.headers());
        synchronized (this) {
            if (seen.get(order)) {
                duplicates++;
            } else {
                seen.set(order);
            }
            if (!BenchOrders.expectedBranch(order).equals(branchOf.get(r.topic()))) {
                misrouted++;
            }
            if (sentAt >= 0 && r.timestampType() == TimestampType.LOG_APPEND_TIME) {
                if (latencyCount == latencies.length) {
                    latencies = Arrays.copyOf(latencies, latencyCount * 2);
                }
                latencies[latencyCount++] = r.timestamp() - sentAt;
            }
        }
    }

    /** The latencies (ms) of the outputs read since the last call, sorted. */
    synchronized long[] takeLatencies() {
        long[] taken = Arrays.copyOf(latencies, latencyCount);
        latencyCount = 0;
        if (latencies.length > 1 << 20) {
            latencies = new long[1024];
        }
        Arrays.sort(taken);
        return taken;
    }

    /** Output records read so far, duplicates included. */
    long read() {
        throwIfFailed();
        return read.get();
    }

    /** Whether the reader has read every partition up to {@code ends}. */
    boolean reached(Map<TopicPartition, Long> ends) {
        throwIfFailed();
        return ends.entrySet().stream()
                .allMatch(e -> e.getValue() == 0 || positions.getOrDefault(e.getKey(), 0L) >= e.getValue());
    }

    /** What the outputs hold against orders {@code 0} to {@code sent - 1}. */
    synchronized Verdict verdict(int sent) {
        throwIfFailed();
        long expected = 0;
        List<String> missing = new ArrayList<>();
        long missingCount = 0;
        for (int i = 0; i < sent; i++) {
            if (BenchOrders.isTest(i)) {
                continue;
            }
            expected++;
            if (!seen.get(i)) {
                missingCount++;
                if (missing.size() < 20) {
                    missing.add(BenchOrders.id(i));
                }
            }
        }
        return new Verdict(sent, expected, missingCount, missing, duplicates, misrouted);
    }

    private void throwIfFailed() {
        if (failure.get() != null) {
            throw new IllegalStateException("reading the outputs failed", failure.get());
        }
    }

    @Override
    public void close() {
        stopped = true;
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The audit's result.
     *
     * @param sent         orders written to the input
     * @param expected     those that must reach an output (all but the test orders)
     * @param missing      expected orders found in no output
     * @param firstMissing the ids of the first missing ones, up to 20
     * @param duplicates   outputs of an order beyond its first
     * @param misrouted    outputs in another topic than their region's
     */
    record Verdict(long sent, long expected, long missing, List<String> firstMissing, long duplicates, long misrouted) {

        /** Nothing lost and nothing in the wrong place. */
        boolean passed() {
            return missing == 0 && misrouted == 0;
        }

        @Override
        public String toString() {
            return String.format(
                    "%,d orders sent, %,d expected in the outputs: %,d missing%s, %,d duplicates (%.3f %% of the"
                            + " output), %,d in the wrong topic",
                    sent,
                    expected,
                    missing,
                    missing == 0 ? "" : " " + firstMissing,
                    duplicates,
                    100.0 * duplicates / Math.max(1, expected + duplicates),
                    misrouted);
        }
    }
}
