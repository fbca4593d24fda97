package io.etl.kafka.source.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etl.core.PipelineResult;
import io.etl.core.RunningPipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.kafka.source.KafkaSourceMetrics;
import io.etl.testkit.EmbeddedKafka;
import io.etl.testkit.KafkaTestCluster;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pipeline JVM frozen with SIGSTOP for twice its session timeout loses its partitions to a second
 * instance, which commits past everything the frozen one had read. After SIGCONT the zombie's late writes
 * and commits must not move any committed offset backwards nor commit a partition it lost; it rejoins the
 * group (or fails cleanly), and nothing is lost.
 */
@EmbeddedKafka(shared = true)
class ZombiePipelineIT {

    private static final int PARTITIONS = 3;
    private static final int ORDERS = 40_000;
    private static final Duration SESSION_TIMEOUT = Duration.ofSeconds(6);

    private final List<AutoCloseable> resources = new ArrayList<>();

    @AfterEach
    void closeEverything() throws Exception {
        for (AutoCloseable r : resources) {
            r.close();
        }
    }

    @Test
    @Timeout(180)
    void neverMovesOffsetsBackNorCommitsLostPartitionsWhenAFrozenInstanceWakesUp(
            KafkaTestCluster kafka, @TempDir Path dir) {
        RunTopics t = RunTopics.create(kafka, "zombie", PARTITIONS);
        Path yaml = instance(kafka, t, "a").write(dir);
        PipelineConfig configB = instance(kafka, t, "b").parse();
        ReplayWindow window = new ReplayWindow(PARTITIONS);
        CommitWatch commits = CommitWatch.start(kafka, t.group());
        resources.add(commits);
        ChildPipeline zombie = ChildPipeline.start("copy", yaml, Path.of("target", "it-logs", t.uid() + "-a.log"));
        resources.add(zombie);
        RunningPipeline b;
        boolean rejoined;
        try (LoadProducer load = LoadProducer.start(kafka, t.input(), PARTITIONS, ORDERS, 2_000)) {
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> kafka.committedTotal(t.group()) >= 3_000 && lag(kafka, t.group(), t.input()) < 500
                            || !zombie.isAlive());
            assertThat(zombie.isAlive())
                    .as("first instance exited early:%n%s", zombie.tail())
                    .isTrue();

            zombie.sigstop();
            long frozenAt = System.nanoTime();
            // whatever the frozen instance had read lies below these end offsets
            window.open(kafka, t.group());
            window.close(kafka, t.input());
            Map<TopicPartition, Long> readBound = kafka.endOffsets(t.input());
            b = Pipelines.copy(configB).start(configB, new SimpleMeterRegistry());
            resources.add(() -> {
                if (!b.result().isDone()) {
                    b.stopAndWait(Duration.ofSeconds(20));
                }
            });
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> b.result().isDone()
                            || assigned(b) == PARTITIONS
                                    && System.nanoTime() - frozenAt > 2 * SESSION_TIMEOUT.toNanos()
                                    && committedBeyond(kafka.committedOffsets(t.group()), readBound));
            assertThat(b.result()).as("second instance running").isNotDone();
            System.out.printf(
                    "zombie: frozen %d s; the second instance owns every partition and committed past %s%n",
                    (System.nanoTime() - frozenAt) / 1_000_000_000L, readBound);

            zombie.sigcont();
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(200))
                    .ignoreExceptions()
                    .until(() -> !zombie.isAlive() || bothOwnPartitions(kafka, t.group()));
            rejoined = zombie.isAlive();
            System.out.printf("zombie: after SIGCONT it %s%n", rejoined ? "rejoined the group" : "exited");
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> (load.done() && Delivery.caughtUp(kafka, t.group(), t.input()))
                            || b.result().isDone());
        }
        if (rejoined) {
            zombie.stopWithin(Duration.ofSeconds(30));
        } else {
            assertThat(zombie.waitFor(Duration.ofSeconds(1)))
                    .as("a zombie that gives up says so with exit 1:%n%s", zombie.tail())
                    .isEqualTo(1);
        }
        PipelineResult result = b.stopAndWait(Duration.ofSeconds(30));
        commits.close();

        assertThat(result.status()).as("result %s", result).isEqualTo(PipelineResult.Status.COMPLETED);
        Map<String, Integer> out = Delivery.idCounts(kafka, t.output());
        List<String> missing = Delivery.missing(out, ORDERS);
        System.out.printf(
                "zombie: %d duplicates over %d orders, window %s, %d commit samples%n",
                Delivery.duplicates(out), ORDERS, window, commits.samples());
        assertThat(missing).as("orders missing from the output").isEmpty();
        assertThat(commits.violations()).as("committed offsets going backwards").isEmpty();
        assertThat(window.unexplainedDuplicates(out))
                .as("duplicates beyond what the zombie had read")
                .isEmpty();
        assertThat(kafka.committedOffsets(t.group())).isEqualTo(kafka.endOffsets(t.input()));
    }

    /** Pipeline {@code <uid>-<instance>} of the copy group, with a short session and revoke timeout. */
    private static PipelineYaml instance(KafkaTestCluster kafka, RunTopics t, String instance) {
        return PipelineYaml.of(t.uid() + "-" + instance, kafka.bootstrapServers(), t.input(), t.group())
                .sessionTimeout(SESSION_TIMEOUT.toSeconds() + "s")
                .source("revoke_timeout", "5s")
                .sink("out", t.output())
                .pool(4, 4, 500, "5ms")
                .checkpoint("100ms", "10s");
    }

    private static boolean committedBeyond(Map<TopicPartition, Long> committed, Map<TopicPartition, Long> bound) {
        return bound.entrySet().stream().allMatch(e -> committed.getOrDefault(e.getKey(), 0L) > e.getValue());
    }

    private static boolean bothOwnPartitions(KafkaTestCluster kafka, String group) throws Exception {
        try (Admin admin = kafka.newAdmin()) {
            ConsumerGroupDescription d = admin.describeConsumerGroups(Set.of(group))
                    .all()
                    .get(10, TimeUnit.SECONDS)
                    .get(group);
            return d.members().size() == 2
                    && d.members().stream()
                            .map(MemberDescription::assignment)
                            .allMatch(a -> !a.topicPartitions().isEmpty());
        }
    }

    private static double assigned(RunningPipeline p) {
        return p.meterRegistry().find(KafkaSourceMetrics.ASSIGNED_PARTITIONS).gauges().stream()
                .mapToDouble(Gauge::value)
                .sum();
    }

    private static long lag(KafkaTestCluster kafka, String group, String input) {
        return kafka.endTotal(input) - kafka.committedTotal(group);
    }
}
