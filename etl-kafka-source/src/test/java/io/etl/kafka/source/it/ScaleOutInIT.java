package io.etl.kafka.source.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etl.core.PipelineResult;
import io.etl.core.RunningPipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.kafka.source.KafkaSourceMetrics;
import io.etl.testkit.EmbeddedKafka;
import io.etl.testkit.KafkaTestCluster;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Acceptance 4: under load, a second and a third instance join the group, then two leave. Nothing is
 * lost, committed offsets never go backwards, and since a revoked partition's in-flight output is waited
 * for (up to {@code revoke_timeout}) before its offsets are committed, a clean hand-over duplicates nothing.
 */
@EmbeddedKafka(shared = true)
class ScaleOutInIT {

    /** Twelve seconds of input: about half of it still arrives after the second and third instance left. */
    private static final int ORDERS = 30_000;

    private static final int PARTITIONS = 6;

    private final List<RunningPipeline> instances = new ArrayList<>();
    private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stopEverything() {
        sampler.shutdownNow();
        for (RunningPipeline p : instances) {
            if (!p.result().isDone()) {
                p.stopAndWait(Duration.ofSeconds(30));
            }
        }
    }

    @Test
    @Timeout(180)
    void scalesOutAndInUnderLoadWithoutLossOrBackwardCommits(KafkaTestCluster kafka) {
        RunTopics t = RunTopics.create(kafka, "scale", PARTITIONS);
        List<String> violations = new CopyOnWriteArrayList<>();
        Map<TopicPartition, Long> highest = new HashMap<>();
        int[] samples = {0};
        sampler.scheduleWithFixedDelay(
                () -> {
                    try {
                        for (Map.Entry<TopicPartition, Long> e :
                                kafka.committedOffsets(t.group()).entrySet()) {
                            Long before = highest.put(e.getKey(), e.getValue());
                            if (before != null && e.getValue() < before) {
                                violations.add(e.getKey() + " went back from " + before + " to " + e.getValue());
                            }
                        }
                        samples[0]++;
                    } catch (RuntimeException e) {
                        violations.add("sampling failed: " + e);
                    }
                },
                0,
                100,
                TimeUnit.MILLISECONDS);

        try (LoadProducer load = LoadProducer.start(kafka, t.input(), PARTITIONS, ORDERS, 2_500)) {
            RunningPipeline a = start(kafka, t.uid(), "a", t.input(), t.group(), t.output());
            awaitCommitted(kafka, t.group(), ORDERS / 10);
            RunningPipeline b = start(kafka, t.uid(), "b", t.input(), t.group(), t.output());
            awaitAssigned(b);
            awaitCommitted(kafka, t.group(), kafka.committedTotal(t.group()) + ORDERS / 8);
            RunningPipeline c = start(kafka, t.uid(), "c", t.input(), t.group(), t.output());
            awaitAssigned(c);
            awaitCommitted(kafka, t.group(), kafka.committedTotal(t.group()) + ORDERS / 8);
            assertThat(b.stopAndWait(Duration.ofSeconds(30)).status()).isEqualTo(PipelineResult.Status.COMPLETED);
            assertThat(c.stopAndWait(Duration.ofSeconds(30)).status()).isEqualTo(PipelineResult.Status.COMPLETED);
            System.out.printf("scale test: b and c left at %d produced%n", load.sent());
            await().atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> (load.done() && Delivery.caughtUp(kafka, t.group(), t.input()))
                            || a.result().isDone());
            assertThat(a.stopAndWait(Duration.ofSeconds(30)).status()).isEqualTo(PipelineResult.Status.COMPLETED);
        }
        sampler.shutdown();
        try {
            assertThat(sampler.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }

        Map<String, Integer> out = Delivery.idCounts(kafka, t.output());
        long duplicates = Delivery.duplicates(out);
        System.out.printf(
                "scale test: %d commit samples, %d duplicates, rebalances a: [%s] b: [%s] c: [%s]%n",
                samples[0],
                duplicates,
                rebalances(instances.get(0).meterRegistry()),
                rebalances(instances.get(1).meterRegistry()),
                rebalances(instances.get(2).meterRegistry()));
        assertThat(violations).as("committed offsets going backwards").isEmpty();
        assertThat(out).hasSize(ORDERS);
        assertThat(duplicates).as("duplicates after clean hand-overs").isZero();
        assertThat(kafka.committedOffsets(t.group())).isEqualTo(kafka.endOffsets(t.input()));
    }

    private RunningPipeline start(
            KafkaTestCluster kafka, String uid, String instance, String input, String group, String output) {
        PipelineConfig config = PipelineYaml.of(uid + "-" + instance, kafka.bootstrapServers(), input, group)
                .groupInstanceId("scale-" + instance)
                .sink("out", output)
                .pool(4, 4, 500, "5ms")
                .checkpoint("200ms", "20s")
                .parse();
        RunningPipeline running = Pipelines.copy(config).start(config, new SimpleMeterRegistry());
        instances.add(running);
        return running;
    }

    private static void awaitCommitted(KafkaTestCluster kafka, String group, long total) {
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> kafka.committedTotal(group) >= total);
    }

    private static void awaitAssigned(RunningPipeline instance) {
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> instance.meterRegistry().find(KafkaSourceMetrics.ASSIGNED_PARTITIONS).gauges().stream()
                        .anyMatch(g -> g.value() > 0));
    }

    private static String rebalances(MeterRegistry registry) {
        StringBuilder sb = new StringBuilder();
        registry.find(KafkaSourceMetrics.REBALANCES)
                .counters()
                .forEach(c -> sb.append(c.getId().getTag(KafkaSourceMetrics.TAG_EVENT))
                        .append('=')
                        .append((long) c.count())
                        .append(' '));
        return sb.toString().trim();
    }
}
