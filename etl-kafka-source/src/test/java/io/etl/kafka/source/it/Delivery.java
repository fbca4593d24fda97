package io.etl.kafka.source.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etl.core.Pipeline;
import io.etl.core.PipelineResult;
import io.etl.core.RunningPipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.TestRecord;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.TopicPartition;

/** What the delivery tests check on the brokers. */
final class Delivery {

    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    private Delivery() {}

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

    /** The ids of orders {@code 0} to {@code orders - 1} that {@code counts} lacks, in order. */
    static List<String> missing(Map<String, Integer> counts, int orders) {
        List<String> missing = new ArrayList<>();
        for (int i = 0; i < orders; i++) {
            if (!counts.containsKey(Orders.id(i))) {
                missing.add(Orders.id(i));
            }
        }
        return missing;
    }

    /**
     * Waits up to {@code within} until {@code group} has committed the end of every partition of {@code input},
     * or {@code running} ended by itself, then stops it and returns its result.
     */
    static PipelineResult runUntilCaughtUp(
            KafkaTestCluster kafka, RunningPipeline running, String group, String input, Duration within) {
        try {
            await().atMost(within)
                    .pollInterval(Duration.ofMillis(100))
                    .until(() ->
                            caughtUp(kafka, group, input) || running.result().isDone());
        } catch (RuntimeException | Error e) {
            running.stopAndWait(Duration.ofSeconds(30));
            throw e;
        }
        return running.stopAndWait(Duration.ofSeconds(30));
    }

    /** Starts {@code pipeline} with {@code config} and waits at most {@code within} for it to end by itself. */
    static PipelineResult resultOf(Pipeline pipeline, PipelineConfig config, Duration within) {
        return pipeline.start(config, new SimpleMeterRegistry())
                .result()
                .orTimeout(within.toMillis(), TimeUnit.MILLISECONDS)
                .join();
    }

    /**
     * Checks that every order below each offset in {@code committed} (orders as {@link LoadProducer} spreads
     * them over {@code partitions}) is in {@code out}, which was read after the offsets; {@code when} goes into
     * the failure message. Returns the committed total.
     */
    static long assertCommittedIsWritten(
            Map<TopicPartition, Long> committed, Map<String, Integer> out, int partitions, String when) {
        long total = 0;
        for (Map.Entry<TopicPartition, Long> e : committed.entrySet()) {
            int p = e.getKey().partition();
            for (long offset = 0; offset < e.getValue(); offset++) {
                String id = LoadProducer.idAt(partitions, p, offset);
                assertThat(out)
                        .as("output of %s, below committed offset %d of partition %d (%s)", id, e.getValue(), p, when)
                        .containsKey(id);
            }
            total += e.getValue();
        }
        return total;
    }

    /**
     * Checks that a copy of orders {@code 0} to {@code orders - 1} is complete: every id is in {@code output},
     * and {@code group} committed the end of every partition of {@code input}.
     */
    static void assertCopiedAll(KafkaTestCluster kafka, String input, String output, String group, int orders) {
        assertThat(idCounts(kafka, output).keySet()).hasSize(orders).contains(Orders.id(0), Orders.id(orders - 1));
        assertThat(kafka.committedOffsets(group)).isEqualTo(kafka.endOffsets(input));
    }
}
