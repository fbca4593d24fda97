package io.etl.kafka.source.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etl.core.PipelineResult;
import io.etl.core.RunningPipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.core.config.SinkPoolConfig;
import io.etl.kafka.source.KafkaSourceMetrics;
import io.etl.testkit.BrokerOptions;
import io.etl.testkit.EmbeddedKafka;
import io.etl.testkit.ForkedKafkaCluster;
import io.etl.testkit.KafkaTestCluster;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Faults of the sink's cluster, on one forked cluster of three brokers shared by every test here
 * (replication factor 3, {@code min.insync.replicas=2}); the input comes from the shared embedded broker and
 * the pipeline runs in this JVM, so its gauges can be watched. Every test checks that nothing is lost, that
 * committed offsets never go backwards, and that every duplicate lies in the window of a fault.
 */
@EmbeddedKafka(shared = true)
class SinkBrokerFaultsIT {

    private static final int PARTITIONS = 3;
    private static ForkedKafkaCluster sinkCluster;

    private final List<RunningPipeline> running = new ArrayList<>();
    private final List<AutoCloseable> watchers = new ArrayList<>();

    @BeforeAll
    static void startSinkCluster() {
        sinkCluster = KafkaTestCluster.forkedCluster(
                3,
                BrokerOptions.builder()
                        .brokerProperty("min.insync.replicas", "2")
                        .build());
    }

    @AfterAll
    static void stopSinkCluster() {
        if (sinkCluster != null) {
            sinkCluster.close();
        }
    }

    @AfterEach
    void stopPipelinesAndHealTheCluster() throws Exception {
        for (RunningPipeline p : running) {
            if (!p.result().isDone()) {
                p.stopAndWait(Duration.ofSeconds(20));
            }
        }
        for (AutoCloseable w : watchers) {
            w.close();
        }
        List<Integer> dead = sinkCluster.brokerIds().stream()
                .filter(id -> !sinkCluster.isAlive(id))
                .toList();
        if (!dead.isEmpty()) {
            sinkCluster.restart(dead);
        }
    }

    @Test
    @Timeout(300)
    void losesNothingWhenTheSinkLeaderIsHardBouncedFiveTimesAndTwoBrokersAreDownForThirtySeconds(
            KafkaTestCluster kafka) {
        RunTopics t = RunTopics.named("bounce");
        kafka.createTopic(t.input(), PARTITIONS);
        sinkCluster.createTopic(t.output(), PARTITIONS, 3, Map.of("min.insync.replicas", "2"));
        PipelineConfig config = t.yaml(kafka)
                .sinkBrokers(sinkCluster.bootstrapServers())
                .eachSink("delivery_timeout", "3s")
                .eachSink("breaker", "{open_wait: 1s, sliding_window: 4, minimum_calls: 2}")
                .pool(2, 2, 500, "5ms")
                .checkpoint("100ms", "20s")
                .parse();
        SinkPoolConfig pool = config.sink("out").pool();
        long pendingBound = pendingBound(pool);
        ReplayWindow window = new ReplayWindow(PARTITIONS);
        CommitWatch commits = watch(CommitWatch.start(kafka, t.group()));
        RunningPipeline pipeline;
        PoolGauges gauges;
        int produced;
        long started = System.nanoTime();
        try (LoadProducer load = LoadProducer.start(kafka, t.input(), PARTITIONS, 1_000_000, 1_500)) {
            pipeline = start(config);
            gauges = watch(PoolGauges.start(pipeline.meterRegistry()));
            awaitCommitted(kafka, t.group(), 2_000, pipeline);

            for (int bounce = 1; bounce <= 5; bounce++) {
                int leader = Replicas.leaderOf(sinkCluster, t.output(), bounce % PARTITIONS);
                window.open(kafka, t.group());
                Map<TopicPartition, Long> readBeforeKill = kafka.endOffsets(t.input());
                sinkCluster.kill9(leader);
                // the controller fences it and moves leadership; restarting earlier races its old registration
                Replicas.awaitOutOfIsr(sinkCluster, t.output(), leader);
                // a restarted follower moves no leadership: it starts while the pipeline's retries run out, inside
                // the window
                CompletableFuture<Void> restarted = CompletableFuture.runAsync(() -> sinkCluster.restart(leader));
                // the window ends once everything read before the kill is committed: the retries are over
                await().atMost(Duration.ofSeconds(60))
                        .pollInterval(Duration.ofMillis(100))
                        .until(() -> Replicas.committedPast(kafka.committedOffsets(t.group()), readBeforeKill)
                                || pipeline.result().isDone());
                long size = window.close(kafka, t.input());
                restarted.join();
                Replicas.awaitFullIsr(sinkCluster, t.output());
                System.out.printf(
                        "bounce %d: killed and restarted leader %d; window %d offsets; %s%n",
                        bounce, leader, size, gauges);
            }

            gauges.reset();
            List<Integer> down = sinkCluster.brokerIds().subList(0, 2);
            window.open(kafka, t.group());
            down.forEach(sinkCluster::kill9);
            long outageStart = System.nanoTime();
            // writes acknowledged just before the brokers died may still be committed for a moment
            await().during(Duration.ofSeconds(5))
                    .atMost(Duration.ofSeconds(7))
                    .until(() -> !pipeline.result().isDone());
            long stalledAt = kafka.committedTotal(t.group());
            long rest = TimeUnit.SECONDS.toMillis(30) - (System.nanoTime() - outageStart) / 1_000_000;
            // nothing commits while only one of three replicas is up, and the pipeline keeps running
            await().during(Duration.ofMillis(rest))
                    .atMost(Duration.ofMillis(rest + 5_000))
                    .pollInterval(Duration.ofMillis(250))
                    .until(() -> !pipeline.result().isDone() && kafka.committedTotal(t.group()) == stalledAt);
            long afterOutage = kafka.committedTotal(t.group());
            assertThat(gauges.paused())
                    .as("the source pauses while the sink is stuck")
                    .isTrue();
            assertThat(gauges.breakerOpened())
                    .as("the breaker opens during the outage; %s", gauges)
                    .isTrue();
            sinkCluster.restart(down);
            await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> gauges.breakerClosedAfterOpening()
                            || pipeline.result().isDone());
            Replicas.awaitFullIsr(sinkCluster, t.output());
            awaitCommitted(kafka, t.group(), afterOutage + 1_000, pipeline);
            System.out.printf("two of three brokers down 30 s: stalled at %d committed; %s%n", stalledAt, gauges);
            load.close();
            produced = load.sent();
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> Delivery.caughtUp(kafka, t.group(), t.input())
                            || pipeline.result().isDone());
            window.close(kafka, t.input());
        }
        PipelineResult result = pipeline.stopAndWait(Duration.ofSeconds(30));
        System.out.printf("leader bounces and outage took %d s%n", (System.nanoTime() - started) / 1_000_000_000L);

        assertThat(result.status()).as("result %s", result).isEqualTo(PipelineResult.Status.COMPLETED);
        assertThat(gauges.breakerClosedAfterOpening())
                .as("the breaker closes once the brokers are back")
                .isTrue();
        assertThat(gauges.maxPending())
                .as("pending records stay within the pool bound")
                .isLessThanOrEqualTo(pendingBound);
        assertThat(gauges.maxInflight())
                .as("in-flight batches stay within the window")
                .isLessThanOrEqualTo(pool.shards() * pool.inflight());
        FaultAudit.assertPasses("bounce", sinkCluster, t.output(), produced, window, commits);
    }

    @Test
    @Timeout(180)
    void backPressuresWithoutRebalancingUnderAProducerQuotaAndRecoversWhenItIsLifted(KafkaTestCluster kafka)
            throws Exception {
        RunTopics t = RunTopics.named("quota");
        String clientId = "etl-" + t.uid();
        // 15 s of input: it still arrives while the quota holds (8 s) and leaves a backlog to measure the lift by
        int orders = 45_000;
        int rate = 3_000;
        kafka.createTopic(t.input(), PARTITIONS);
        sinkCluster.createTopic(t.output(), PARTITIONS, 3, Map.of());
        PipelineConfig config = t.yaml(kafka)
                .sinkBrokers(sinkCluster.bootstrapServers())
                .producer("client.id", clientId)
                .consumer("max.poll.interval.ms", "5000")
                .pool(2, 2, 500, "5ms")
                .checkpoint("100ms", "20s")
                .parse();
        SinkPoolConfig pool = config.sink("out").pool();
        ReplayWindow window = new ReplayWindow(PARTITIONS);
        CommitWatch commits = watch(CommitWatch.start(kafka, t.group()));
        RunningPipeline pipeline;
        PoolGauges gauges;
        double throttledRate;
        double liftedRate;
        try (LoadProducer load = LoadProducer.start(kafka, t.input(), PARTITIONS, orders, rate);
                Admin admin = sinkCluster.newAdmin()) {
            pipeline = start(config);
            gauges = watch(PoolGauges.start(pipeline.meterRegistry()));
            awaitCommitted(kafka, t.group(), 3_000, pipeline);

            window.open(kafka, t.group());
            setProducerByteRate(admin, clientId, 10_000.0);
            // the throttle takes hold within about a second; measure after that
            await().during(Duration.ofSeconds(2))
                    .atMost(Duration.ofSeconds(4))
                    .until(() -> !pipeline.result().isDone());
            gauges.reset();
            throttledRate = commitRate(kafka, t.group(), Duration.ofSeconds(6), pipeline);
            assertThat(gauges.paused())
                    .as("the source pauses while the sink is throttled; %s", gauges)
                    .isTrue();
            assertThat(throttledRate)
                    .as("throttled commit rate (records/s), input at %d/s", rate)
                    .isLessThan(rate / 2.0);

            setProducerByteRate(admin, clientId, null);
            long liftedAt = System.nanoTime();
            // a connection the broker muted stays muted for the throttle time it was given last
            double[] rates = {0};
            long[] last = {kafka.committedTotal(t.group()), System.nanoTime()};
            await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofSeconds(1))
                    .until(() -> {
                        long now = System.nanoTime();
                        long total = kafka.committedTotal(t.group());
                        rates[0] = (total - last[0]) * 1e9 / (now - last[1]);
                        last[0] = total;
                        last[1] = now;
                        return rates[0] > 3 * throttledRate
                                || load.done() && Delivery.caughtUp(kafka, t.group(), t.input());
                    });
            liftedRate = rates[0];
            System.out.printf(
                    "quota: %.0f records/s throttled, %.0f records/s %d ms after it was lifted; %s%n",
                    throttledRate, liftedRate, (System.nanoTime() - liftedAt) / 1_000_000, gauges);
            assertThat(liftedRate).as("throughput once the quota is lifted").isGreaterThan(3 * throttledRate);
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> (load.done() && Delivery.caughtUp(kafka, t.group(), t.input()))
                            || pipeline.result().isDone());
            window.close(kafka, t.input());
        }
        assertThat(pipeline.result()).as("pipeline did not fail").isNotDone();
        MeterRegistry registry = pipeline.meterRegistry();
        assertThat(rebalances(registry, "assigned"))
                .as("assignments: only the first")
                .isEqualTo(1.0);
        assertThat(rebalances(registry, "revoked") + rebalances(registry, "lost"))
                .as("revoked or lost")
                .isZero();
        PipelineResult result = pipeline.stopAndWait(Duration.ofSeconds(30));

        assertThat(result.status()).as("result %s", result).isEqualTo(PipelineResult.Status.COMPLETED);
        assertThat(gauges.maxPending()).isLessThanOrEqualTo(pendingBound(pool));
        assertThat(gauges.maxInflight()).isLessThanOrEqualTo(pool.shards() * pool.inflight());
        FaultAudit.assertPasses("quota", sinkCluster, t.output(), orders, window, commits);
    }

    @Test
    @Timeout(180)
    void losesNothingAndDuplicatesOnlyTheWindowWhenScaledOutDuringASinkOutage(KafkaTestCluster kafka) {
        RunTopics t = RunTopics.named("pausedscale");
        int partitions = 4;
        int orders = 20_000;
        kafka.createTopic(t.input(), partitions);
        sinkCluster.createTopic(t.output(), partitions, 3, Map.of("min.insync.replicas", "2"));
        ReplayWindow window = new ReplayWindow(partitions);
        CommitWatch commits = watch(CommitWatch.start(kafka, t.group()));
        RunningPipeline a;
        RunningPipeline b;
        try (LoadProducer load = LoadProducer.start(kafka, t.input(), partitions, orders, 1_500)) {
            a = start(scaleConfig(kafka, t.uid(), "a", t.input(), t.group(), t.output()));
            PoolGauges gaugesA = watch(PoolGauges.start(a.meterRegistry()));
            awaitCommitted(kafka, t.group(), 2_000, a);

            List<Integer> down = sinkCluster.brokerIds().subList(1, 3);
            window.open(kafka, t.group());
            down.forEach(sinkCluster::kill9);
            await().atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(50))
                    .until(gaugesA::paused);
            down.forEach(id -> Replicas.awaitOutOfIsr(sinkCluster, t.output(), id));
            b = start(scaleConfig(kafka, t.uid(), "b", t.input(), t.group(), t.output()));
            await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> assigned(b.meterRegistry()) > 0 || b.result().isDone());
            assertThat(rebalances(a.meterRegistry(), "revoked"))
                    .as("a gave partitions up while paused")
                    .isPositive();
            sinkCluster.restart(down);
            await().atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> (load.done() && Delivery.caughtUp(kafka, t.group(), t.input()))
                            || a.result().isDone()
                            || b.result().isDone());
            long size = window.close(kafka, t.input());
            System.out.printf("scaled out during the outage: window %d offsets; a: %s%n", size, gaugesA);
        }
        assertThat(a.stopAndWait(Duration.ofSeconds(30)).status()).isEqualTo(PipelineResult.Status.COMPLETED);
        assertThat(b.stopAndWait(Duration.ofSeconds(30)).status()).isEqualTo(PipelineResult.Status.COMPLETED);
        FaultAudit.assertPasses("scale out", sinkCluster, t.output(), orders, window, commits);
    }

    private PipelineConfig scaleConfig(
            KafkaTestCluster kafka, String uid, String instance, String input, String group, String output) {
        return PipelineYaml.of(uid + "-" + instance, kafka.bootstrapServers(), input, group)
                .groupInstanceId(uid + "-" + instance)
                .source("revoke_timeout", "3s")
                .sinkBrokers(sinkCluster.bootstrapServers())
                .eachSink("delivery_timeout", "3s")
                .sink("out", output)
                .pool(2, 2, 500, "5ms")
                .checkpoint("100ms", "20s")
                .parse();
    }

    private RunningPipeline start(PipelineConfig config) {
        RunningPipeline p = Pipelines.copy(config).start(config, new SimpleMeterRegistry());
        running.add(p);
        return p;
    }

    private <T extends AutoCloseable> T watch(T watcher) {
        watchers.add(watcher);
        return watcher;
    }

    private static long pendingBound(SinkPoolConfig pool) {
        return (long) pool.shards()
                * (pool.queue() + pool.inflight() + 2)
                * pool.batch().maxRecords();
    }

    private static void setProducerByteRate(Admin admin, String clientId, Double rate) throws Exception {
        ClientQuotaEntity entity = new ClientQuotaEntity(Map.of(ClientQuotaEntity.CLIENT_ID, clientId));
        admin.alterClientQuotas(List.of(new ClientQuotaAlteration(
                        entity, List.of(new ClientQuotaAlteration.Op("producer_byte_rate", rate)))))
                .all()
                .get(30, TimeUnit.SECONDS);
    }

    /** Records committed per second over {@code span}. */
    private static double commitRate(KafkaTestCluster kafka, String group, Duration span, RunningPipeline pipeline) {
        long from = kafka.committedTotal(group);
        long start = System.nanoTime();
        await().during(span)
                .atMost(span.plusSeconds(2))
                .until(() -> !pipeline.result().isDone());
        long to = kafka.committedTotal(group);
        return (to - from) * 1e9 / (System.nanoTime() - start);
    }

    private static double rebalances(MeterRegistry registry, String event) {
        return registry.get(KafkaSourceMetrics.REBALANCES)
                .tag(KafkaSourceMetrics.TAG_EVENT, event)
                .counter()
                .count();
    }

    private static double assigned(MeterRegistry registry) {
        return registry.find(KafkaSourceMetrics.ASSIGNED_PARTITIONS).gauges().stream()
                .mapToDouble(g -> g.value())
                .sum();
    }

    private static void awaitCommitted(KafkaTestCluster kafka, String group, long total, RunningPipeline pipeline) {
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> kafka.committedTotal(group) >= total
                        || pipeline.result().isDone());
        assertThat(pipeline.result()).as("pipeline still running").isNotDone();
    }
}
