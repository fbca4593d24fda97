package io.etl.kafka.source.it;

import io.etl.testkit.KafkaTestCluster;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.TopicPartition;

/**
 * Samples a group's committed offsets in the background and notes every partition whose committed offset
 * went backwards: what a late commit from a member that lost its partitions would do.
 */
final class CommitWatch implements AutoCloseable {

    private final KafkaTestCluster kafka;
    private final String group;
    private final Map<TopicPartition, Long> highest = new HashMap<>();
    private final List<String> violations = new CopyOnWriteArrayList<>();
    private final AtomicInteger samples = new AtomicInteger();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "commit-watch");
        t.setDaemon(true);
        return t;
    });

    private CommitWatch(KafkaTestCluster kafka, String group) {
        this.kafka = kafka;
        this.group = group;
    }

    /** Starts sampling {@code group} on {@code kafka} every 50 ms. */
    static CommitWatch start(KafkaTestCluster kafka, String group) {
        CommitWatch watch = new CommitWatch(kafka, group);
        watch.timer.scheduleWithFixedDelay(watch::sample, 0, 50, TimeUnit.MILLISECONDS);
        return watch;
    }

    private void sample() {
        try {
            for (Map.Entry<TopicPartition, Long> e :
                    kafka.committedOffsets(group).entrySet()) {
                Long before;
                synchronized (highest) {
                    before = highest.merge(e.getKey(), e.getValue(), Math::max);
                }
                if (e.getValue() < before) {
                    violations.add(e.getKey() + " went back from " + before + " to " + e.getValue());
                }
            }
            samples.incrementAndGet();
        } catch (RuntimeException e) {
            // a sample that could not be taken proves nothing either way; the next one will
        }
    }

    /** The highest committed offset seen per partition. */
    Map<TopicPartition, Long> highest() {
        synchronized (highest) {
            return new HashMap<>(highest);
        }
    }

    /** Every backward move seen so far. */
    List<String> violations() {
        return List.copyOf(violations);
    }

    int samples() {
        return samples.get();
    }

    @Override
    public void close() {
        timer.shutdownNow();
        try {
            timer.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
