package io.etl.kafka.source.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etl.core.Pipeline;
import io.etl.core.PipelineResult;
import io.etl.core.RunningPipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.core.metrics.EtlMetrics;
import io.etl.kafka.sink.KafkaSink;
import io.etl.kafka.source.KafkaSource;
import io.etl.kafka.source.KafkaSourceMetrics;
import io.etl.testkit.EmbeddedKafka;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.TestRecord;
import io.etl.testkit.http.TestHttpService;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Asynchronous stages across rebalances, against a real broker and a real local HTTP service: instances joining and
 * leaving (1 → 3 → 1) lose nothing, keep each customer's order and, since a revoke waits for the calls in flight,
 * repeat nothing; calls that outlive a revoke's {@code revoke_timeout} are dropped uncommitted and called again by
 * the partition's next owner, their late answers ignored; and the slow-operator fault row: an operator that blocks longer than {@code max.poll.interval.ms}
 * never has its instance's uncommitted work committed after another instance took its partitions (a synchronous one
 * gets the instance evicted, and its late commits are refused; an asynchronous one does not get it evicted at all).
 */
@EmbeddedKafka(shared = true)
class AsyncStageRebalanceIT {

    private static final int PARTITIONS = 6;
    /** The settings of stage {@code enrich} of {@link KeyedOrders#enrich}. */
    private static final UnaryOperator<PipelineYaml> ENRICH_STAGE =
            y -> y.pipeline("stages", "{enrich: {concurrency: 32, timeout: 20s}}");

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
    @Timeout(150)
    void scalingOneToThreeToOneLosesNothingAndKeepsEachKeysOrder(KafkaTestCluster kafka) {
        int orders = 12_000;
        RunTopics t = RunTopics.create(kafka, "async-scale", PARTITIONS);
        List<String> violations = watchCommits(kafka, t.group());
        try (TestHttpService service = TestHttpService.start(Duration.ofMillis(10), p -> "\"gold\"");
                LoadProducer load =
                        LoadProducer.start(kafka, t.input(), PARTITIONS, orders, 2_000, KeyedOrders::record)) {
            RunningPipeline a = start(kafka, t, "a", c -> KeyedOrders.enrich(c, service.uri()));
            awaitCommitted(kafka, t.group(), orders / 10);
            RunningPipeline b = start(kafka, t, "b", c -> KeyedOrders.enrich(c, service.uri()));
            RunningPipeline c = start(kafka, t, "c", cfg -> KeyedOrders.enrich(cfg, service.uri()));
            awaitAssigned(b);
            awaitAssigned(c);
            awaitCommitted(kafka, t.group(), kafka.committedTotal(t.group()) + orders / 8);
            assertThat(b.stopAndWait(Duration.ofSeconds(30)).status()).isEqualTo(PipelineResult.Status.COMPLETED);
            assertThat(c.stopAndWait(Duration.ofSeconds(30)).status()).isEqualTo(PipelineResult.Status.COMPLETED);
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> (load.done() && Delivery.caughtUp(kafka, t.group(), t.input()))
                            || a.result().isDone());
            assertThat(a.stopAndWait(Duration.ofSeconds(30)).status()).isEqualTo(PipelineResult.Status.COMPLETED);
        }

        List<TestRecord> out = kafka.readAll(t.output());
        Map<String, Integer> counts = Delivery.idCounts(out);
        System.out.printf("async scale test: %d outputs, %d duplicates%n", out.size(), Delivery.duplicates(counts));
        assertThat(violations).as("committed offsets going backwards").isEmpty();
        assertThat(Delivery.missing(counts, orders)).isEmpty();
        assertThat(KeyedOrders.orderViolations(out))
                .as("outputs out of their customer's order")
                .isEmpty();
        assertThat(Delivery.duplicates(counts))
                .as("duplicates after clean hand-overs")
                .isZero();
        assertThat(kafka.committedOffsets(t.group())).isEqualTo(kafka.endOffsets(t.input()));
    }

    @Test
    @Timeout(150)
    void aSynchronousOperatorBlockingPastMaxPollIntervalNeverGetsItsWorkCommittedByTheEvictedInstance(
            KafkaTestCluster kafka) {
        int orders = 3_000;
        RunTopics t = RunTopics.create(kafka, "slow-sync", PARTITIONS);
        List<String> violations = watchCommits(kafka, t.group());
        AtomicBoolean armed = new AtomicBoolean();
        List<String> blockedOn = new CopyOnWriteArrayList<>();
        try (LoadProducer load = LoadProducer.start(kafka, t.input(), PARTITIONS, orders, 400, KeyedOrders::record)) {
            // a: its operator blocks 8 s, once, on the first record after the test arms it; b: never blocks
            RunningPipeline a = start(kafka, t, "a", UnaryOperator.identity(), c -> slowCopy(c, armed, blockedOn));
            RunningPipeline b =
                    start(kafka, t, "b", UnaryOperator.identity(), c -> slowCopy(c, new AtomicBoolean(), blockedOn));
            awaitAssigned(a);
            awaitAssigned(b);
            awaitCommitted(kafka, t.group(), orders / 6);
            armed.set(true);
            await().atMost(Duration.ofSeconds(30)).until(() -> lost(a.meterRegistry()) > 0);
            System.out.printf("slow sync operator: blocked on %s, instance a lost its partitions%n", blockedOn);
            await().atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> load.done() && Delivery.caughtUp(kafka, t.group(), t.input()));
            assertThat(a.stopAndWait(Duration.ofSeconds(30)).status()).isEqualTo(PipelineResult.Status.COMPLETED);
            assertThat(b.stopAndWait(Duration.ofSeconds(30)).status()).isEqualTo(PipelineResult.Status.COMPLETED);
        }
        assertDeliveredInOrder(kafka, t, orders, violations);
    }

    @Test
    @Timeout(120)
    void anAsynchronousCallLongerThanMaxPollIntervalDoesNotGetTheInstanceEvicted(KafkaTestCluster kafka) {
        int orders = 2_000;
        RunTopics t = RunTopics.create(kafka, "slow-async", PARTITIONS);
        List<String> violations = watchCommits(kafka, t.group());
        try (TestHttpService service = TestHttpService.start(Duration.ofMillis(5), p -> "\"gold\"")) {
            // the first call for customer c-7 takes 8 s, past the consumer's max.poll.interval.ms of 4 s
            AtomicBoolean slowed = new AtomicBoolean();
            service.slow(p -> p.endsWith("/c-7") && slowed.compareAndSet(false, true), Duration.ofSeconds(8));
            try (LoadProducer load =
                    LoadProducer.start(kafka, t.input(), PARTITIONS, orders, 1_000, KeyedOrders::record)) {
                RunningPipeline a = start(kafka, t, "a", c -> KeyedOrders.enrich(c, service.uri()));
                await().atMost(Duration.ofSeconds(30)).until(slowed::get);
                await().atMost(Duration.ofSeconds(90))
                        .pollInterval(Duration.ofMillis(200))
                        .until(() -> load.done() && Delivery.caughtUp(kafka, t.group(), t.input()));
                assertThat(lost(a.meterRegistry()))
                        .as("partitions lost by the instance")
                        .isZero();
                assertThat(a.stopAndWait(Duration.ofSeconds(30)).status()).isEqualTo(PipelineResult.Status.COMPLETED);
            }
        }
        assertDeliveredInOrder(kafka, t, orders, violations);
    }

    @Test
    @Timeout(120)
    void callsStillRunningWhenARevokeTimesOutAreDroppedUncommittedAndReplayedByTheNextOwner(KafkaTestCluster kafka) {
        int orders = 2_400;
        RunTopics t = RunTopics.create(kafka, "async-revoke", PARTITIONS);
        List<String> violations = watchCommits(kafka, t.group());
        // customers c-0 to c-5 own the first record of partitions 0 to 5: each first call takes 15 s, so whichever
        // partitions leave instance a, a call of theirs is still running when the revoke's 2 s are up
        Set<String> hung = ConcurrentHashMap.newKeySet();
        try (TestHttpService service = TestHttpService.start(Duration.ofMillis(5), p -> "\"gold\"")) {
            service.slow(
                    p -> p.matches(".*/c-[0-5]") && hung.add(p.substring(p.lastIndexOf('/') + 1)),
                    Duration.ofSeconds(15));
            UnaryOperator<PipelineYaml> settings = y -> ENRICH_STAGE.apply(y).source("revoke_timeout", "2s");
            try (LoadProducer load =
                    LoadProducer.start(kafka, t.input(), PARTITIONS, orders, 1_000, KeyedOrders::record)) {
                RunningPipeline a = start(kafka, t, "a", settings, c -> KeyedOrders.enrich(c, service.uri()));
                await().atMost(Duration.ofSeconds(30)).until(() -> hung.size() == PARTITIONS);
                RunningPipeline b = start(kafka, t, "b", settings, c -> KeyedOrders.enrich(c, service.uri()));
                awaitAssigned(b);
                await().atMost(Duration.ofSeconds(30)).until(() -> rebalances(a.meterRegistry(), "revoked") > 0);
                await().atMost(Duration.ofSeconds(90))
                        .pollInterval(Duration.ofMillis(200))
                        .until(() -> load.done() && Delivery.caughtUp(kafka, t.group(), t.input()));
                // the calls a gave up finish too, and are ignored
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> stageGauge(a.meterRegistry(), EtlMetrics.STAGE_INFLIGHT) == 0);
                assertThat(a.stopAndWait(Duration.ofSeconds(30)).status()).isEqualTo(PipelineResult.Status.COMPLETED);
                assertThat(b.stopAndWait(Duration.ofSeconds(30)).status()).isEqualTo(PipelineResult.Status.COMPLETED);
            }
        }
        assertDeliveredInOrder(kafka, t, orders, violations);
        Map<String, Integer> counts = Delivery.idCounts(kafka, t.output());
        for (int i = 0; i < PARTITIONS; i++) {
            assertThat(counts.get(Orders.id(i)))
                    .as("outputs of %s, whose first call outlived the revoke", Orders.id(i))
                    .isEqualTo(1);
        }
    }

    /** The copy of keyed orders whose operator blocks 8 s once, on the first record it sees after {@code armed}. */
    private static Pipeline slowCopy(PipelineConfig config, AtomicBoolean armed, List<String> blockedOn) {
        return Pipeline.named("slow-copy")
                .from(KafkaSource.from(config.source("orders")).json(KeyedOrders.Keyed.class))
                .map("slow", o -> {
                    if (armed.compareAndSet(true, false)) {
                        blockedOn.add(o.id());
                        // sleep, not park: the pipeline thread is unparked whenever a sink acknowledges
                        sleep(Duration.ofSeconds(8));
                    }
                    return new KeyedOrders.Enriched(o.id(), o.customer(), o.seq(), "-");
                })
                .to(KafkaSink.from(config.sink("out")).json());
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void assertDeliveredInOrder(
            KafkaTestCluster kafka, RunTopics t, int orders, List<String> violations) {
        List<TestRecord> out = kafka.readAll(t.output());
        Map<String, Integer> counts = Delivery.idCounts(out);
        System.out.printf("%s: %d outputs, %d duplicates%n", t.uid(), out.size(), Delivery.duplicates(counts));
        assertThat(violations)
                .as("committed offsets going backwards or ahead of the output")
                .isEmpty();
        assertThat(Delivery.missing(counts, orders))
                .as("orders missing from the output")
                .isEmpty();
        assertThat(KeyedOrders.orderViolations(out))
                .as("outputs out of their customer's order")
                .isEmpty();
        assertThat(kafka.committedOffsets(t.group())).isEqualTo(kafka.endOffsets(t.input()));
    }

    /**
     * Samples the group's committed offsets every 100 ms: none may go backwards, and every order below a committed
     * offset must be in the output read after it.
     */
    private List<String> watchCommits(KafkaTestCluster kafka, String group) {
        List<String> violations = new CopyOnWriteArrayList<>();
        Map<TopicPartition, Long> highest = new HashMap<>();
        String output = "out-" + group.substring("group-".length());
        sampler.scheduleWithFixedDelay(
                () -> {
                    try {
                        Map<TopicPartition, Long> committed = kafka.committedOffsets(group);
                        for (Map.Entry<TopicPartition, Long> e : committed.entrySet()) {
                            Long before = highest.put(e.getKey(), e.getValue());
                            if (before != null && e.getValue() < before) {
                                violations.add(e.getKey() + " went back from " + before + " to " + e.getValue());
                            }
                        }
                        Delivery.assertCommittedIsWritten(
                                committed, Delivery.idCounts(kafka, output), PARTITIONS, "sample");
                    } catch (AssertionError e) {
                        violations.add(e.getMessage());
                    } catch (RuntimeException e) {
                        // a sample that could not be taken is no violation
                    }
                },
                0,
                100,
                TimeUnit.MILLISECONDS);
        return violations;
    }

    /** Starts instance {@code instance} of a pipeline with the asynchronous stage {@code enrich}. */
    private RunningPipeline start(
            KafkaTestCluster kafka, RunTopics t, String instance, Function<PipelineConfig, Pipeline> pipeline) {
        return start(kafka, t, instance, ENRICH_STAGE, pipeline);
    }

    /** Starts instance {@code instance} of {@code pipeline}, with the test's settings changed by {@code settings}. */
    private RunningPipeline start(
            KafkaTestCluster kafka,
            RunTopics t,
            String instance,
            UnaryOperator<PipelineYaml> settings,
            Function<PipelineConfig, Pipeline> pipeline) {
        PipelineYaml yaml = PipelineYaml.of(t.uid() + "-" + instance, kafka.bootstrapServers(), t.input(), t.group())
                .sink("out", t.output())
                .sessionTimeout("6s")
                .consumer("max.poll.interval.ms", "4000")
                .pool(4, 4, 500, "5ms")
                .checkpoint("200ms", "20s");
        PipelineConfig config = settings.apply(yaml).parse();
        RunningPipeline running = pipeline.apply(config).start(config, new SimpleMeterRegistry());
        instances.add(running);
        return running;
    }

    private static double lost(MeterRegistry registry) {
        return rebalances(registry, "lost");
    }

    private static double rebalances(MeterRegistry registry, String event) {
        return registry.find(KafkaSourceMetrics.REBALANCES).tag(KafkaSourceMetrics.TAG_EVENT, event).counters().stream()
                .mapToDouble(c -> c.count())
                .sum();
    }

    private static double stageGauge(MeterRegistry registry, String name) {
        return registry.find(name).tag(EtlMetrics.TAG_STAGE, "enrich").gauges().stream()
                .mapToDouble(g -> g.value())
                .sum();
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
}
