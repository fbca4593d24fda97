package io.etl.kafka.source.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etl.testkit.BrokerOptions;
import io.etl.testkit.BrokerProxies;
import io.etl.testkit.ForkedKafkaCluster;
import io.etl.testkit.KafkaTestCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Faults between a pipeline JVM and the cluster it reads and writes: one forked cluster of three brokers shared by
 * the tests here (replication factor 3, {@code min.insync.replicas=2}), which the pipeline reaches only through the
 * kit's proxies, one per broker, while the test's own clients go straight to the brokers. Input arrives at a steady
 * rate throughout. Every test ends with the audit of {@link FaultAudit}: nothing lost, committed offsets never
 * backwards (sampled every 50 ms), every duplicate inside the window of a fault, and the duplicates printed.
 */
class SourceBrokerFaultsIT {

    private static final int PARTITIONS = 3;
    private static final int RATE = 2_500;
    /** More than any test sends: each stops its load once its faults are over. */
    private static final int MAX_ORDERS = 1_000_000;

    private static final Duration BLACK_HOLE = Duration.ofSeconds(20);
    /** {@code offsets.topic.num.partitions} of the kit's brokers. */
    private static final int OFFSETS_PARTITIONS = 5;

    private static ForkedKafkaCluster kafka;
    private static BrokerProxies proxies;

    @RegisterExtension
    final ChildPipelines children = new ChildPipelines();

    private final List<AutoCloseable> watchers = new ArrayList<>();

    @BeforeAll
    static void startCluster() {
        kafka = KafkaTestCluster.forkedCluster(
                3,
                BrokerOptions.builder()
                        .brokerProperty("min.insync.replicas", "2")
                        .proxied()
                        .build());
        proxies = kafka.proxies().orElseThrow();
    }

    @AfterAll
    static void stopCluster() {
        if (kafka != null) {
            kafka.close();
        }
    }

    @AfterEach
    void healTheCluster() throws Exception {
        for (AutoCloseable w : watchers) {
            w.close();
        }
        proxies.pass();
        for (int id : kafka.brokerIds()) {
            if (!kafka.isAlive(id)) {
                kafka.restart(id);
            }
        }
    }

    /**
     * One broker is both the group's coordinator and the leader of an input partition (the input is created so);
     * it is killed under load: the consumer must find a new coordinator and a new leader at once.
     */
    @Test
    @Timeout(240)
    void losesNothingWhenTheGroupCoordinatorThatLeadsASourcePartitionIsKilled(@TempDir Path dir) {
        RunTopics t = RunTopics.named("srckill");
        int victim = Replicas.futureCoordinatorOf(kafka, t.group(), OFFSETS_PARTITIONS);
        Replicas.createLedBy(kafka, t.input(), PARTITIONS, kafka.brokerIds(), victim);
        kafka.createTopic(t.output(), PARTITIONS, 3, Map.of());
        ReplayWindow window = new ReplayWindow(PARTITIONS);
        CommitWatch commits = watch(CommitWatch.start(kafka, t.group()));
        ChildPipeline pipeline;
        int produced;
        try (LoadProducer load = LoadProducer.start(kafka, t.input(), PARTITIONS, MAX_ORDERS, RATE)) {
            pipeline = children.start("copy", pipelineYaml(t).write(dir), t.uid());
            awaitSteady(t, 2_000, load, pipeline);
            assertThat(Replicas.coordinatorOf(kafka, t.group()))
                    .as("the group's coordinator")
                    .isEqualTo(victim);
            assertThat(Replicas.leaderOf(kafka, t.input(), 0))
                    .as("the leader of input partition 0")
                    .isEqualTo(victim);

            killAndRestart(
                    "coordinator of " + t.group() + " and leader of " + t.input() + "-0", victim, t, window, pipeline);

            load.close();
            produced = load.sent();
            awaitCaughtUp(t, pipeline);
        }
        pipeline.stopWithin(Duration.ofSeconds(30));

        assertThat(kafka.endTotal(t.input()))
                .as("every order sent is in the input")
                .isEqualTo(produced);
        FaultAudit.assertPasses("coordinator and source leader killed", kafka, t.output(), produced, window, commits);
    }

    @Test
    @Timeout(240)
    void losesNothingThroughATwentySecondBlackHoleFollowedByAReset(@TempDir Path dir) {
        RunTopics t = topics("blackhole");
        ReplayWindow window = new ReplayWindow(PARTITIONS);
        CommitWatch commits = watch(CommitWatch.start(kafka, t.group()));
        ChildPipeline pipeline;
        int produced;
        try (LoadProducer load = LoadProducer.start(kafka, t.input(), PARTITIONS, MAX_ORDERS, RATE)) {
            pipeline = children.start("copy", pipelineYaml(t).write(dir), t.uid());
            awaitSteady(t, 2_000, load, pipeline);
            assertThat(proxies.all())
                    .allSatisfy(p -> assertThat(p.openConnections()).isPositive());

            window.open(kafka, t.group());
            proxies.drop();
            long droppedAt = System.nanoTime();
            // a commit forwarded just before the drop may still land; after that nothing can
            await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(pipeline::isAlive);
            long stalledAt = kafka.committedTotal(t.group());
            long rest = BLACK_HOLE.toMillis() - (System.nanoTime() - droppedAt) / 1_000_000;
            await().during(Duration.ofMillis(rest))
                    .atMost(Duration.ofMillis(rest + 5_000))
                    .pollInterval(Duration.ofMillis(250))
                    .until(() -> pipeline.isAlive() && kafka.committedTotal(t.group()) == stalledAt);

            proxies.pass();
            int reset = proxies.reset();
            long healedAt = System.nanoTime();
            Map<TopicPartition, Long> arrivedDuringTheHole = kafka.endOffsets(t.input());
            await().atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> Replicas.committedPast(kafka.committedOffsets(t.group()), arrivedDuringTheHole)
                            || !pipeline.isAlive());
            assertThat(pipeline.isAlive())
                    .as("pipeline JVM alive:%n%s", pipeline.tail())
                    .isTrue();
            long size = window.close(kafka, t.input());
            System.out.printf(
                    "black hole of %d s: commits stalled at %d; %d connection(s) reset; everything that arrived"
                            + " meanwhile committed %d ms after the reset; window %d offsets%n",
                    BLACK_HOLE.toSeconds(), stalledAt, reset, (System.nanoTime() - healedAt) / 1_000_000, size);
            assertThat(reset).as("connections the black hole cut").isPositive();

            load.close();
            produced = load.sent();
            awaitCaughtUp(t, pipeline);
        }
        pipeline.stopWithin(Duration.ofSeconds(30));

        assertThat(kafka.endTotal(t.input()))
                .as("every order sent is in the input")
                .isEqualTo(produced);
        FaultAudit.assertPasses("black hole and reset", kafka, t.output(), produced, window, commits);
    }

    /**
     * Kills {@code broker} with SIGKILL under load, waits until everything that had arrived before the kill is
     * committed (the pipeline got past the fault), closes the fault's window there and restarts the broker.
     */
    private static void killAndRestart(
            String role, int broker, RunTopics t, ReplayWindow window, ChildPipeline pipeline) {
        window.open(kafka, t.group());
        Map<TopicPartition, Long> arrivedBeforeTheKill = kafka.endOffsets(t.input());
        long killedAt = System.nanoTime();
        kafka.kill9(broker);
        await().atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(100))
                .ignoreExceptions()
                .until(() -> Replicas.committedPast(kafka.committedOffsets(t.group()), arrivedBeforeTheKill)
                        || !pipeline.isAlive());
        assertThat(pipeline.isAlive())
                .as("pipeline JVM alive:%n%s", pipeline.tail())
                .isTrue();
        long recoveredMs = (System.nanoTime() - killedAt) / 1_000_000;
        long size = window.close(kafka, t.input());
        kafka.restart(broker);
        System.out.printf(
                "SIGKILL of broker %d (%s): everything that arrived before it committed %d ms later; window %d"
                        + " offsets; broker back %d ms after the kill%n",
                broker, role, recoveredMs, size, (System.nanoTime() - killedAt) / 1_000_000);
    }

    /** Input and output, replicated three times; the pipeline's group. */
    private static RunTopics topics(String prefix) {
        RunTopics t = RunTopics.named(prefix);
        kafka.createTopic(t.input(), PARTITIONS, 3, Map.of());
        kafka.createTopic(t.output(), PARTITIONS, 3, Map.of());
        return t;
    }

    /** The copy pipeline, reaching the cluster only through the proxies. */
    private static PipelineYaml pipelineYaml(RunTopics t) {
        return PipelineYaml.of(t.uid(), proxies.bootstrapServers(), t.input(), t.group())
                .sink("out", t.output())
                .sessionTimeout("6s")
                .pool(4, 4, 500, "5ms")
                .checkpoint("100ms", "10s");
    }

    /**
     * Waits until the pipeline has committed {@code total} records and keeps up with the input (within 0.4 s of
     * it), so that a fault meets it in its steady state rather than catching up with its start.
     */
    private static void awaitSteady(RunTopics t, long total, LoadProducer load, ChildPipeline pipeline) {
        await().atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> {
                    long committed = kafka.committedTotal(t.group());
                    return committed >= total && load.sent() - committed < RATE * 2 / 5 || !pipeline.isAlive();
                });
        assertThat(pipeline.isAlive())
                .as("pipeline JVM alive:%n%s", pipeline.tail())
                .isTrue();
    }

    private static void awaitCaughtUp(RunTopics t, ChildPipeline pipeline) {
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(200))
                .ignoreExceptions()
                .until(() -> Delivery.caughtUp(kafka, t.group(), t.input()) || !pipeline.isAlive());
        assertThat(pipeline.isAlive())
                .as("pipeline JVM alive:%n%s", pipeline.tail())
                .isTrue();
    }

    private <T extends AutoCloseable> T watch(T watcher) {
        watchers.add(watcher);
        return watcher;
    }
}
