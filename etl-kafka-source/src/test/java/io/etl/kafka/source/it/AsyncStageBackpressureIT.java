package io.etl.kafka.source.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etl.core.PipelineResult;
import io.etl.core.RunningPipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.core.metrics.EtlMetrics;
import io.etl.testkit.EmbeddedKafka;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.TestRecord;
import io.etl.testkit.http.TestHttpService;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Backpressure of an asynchronous stage against a real broker and a real local HTTP service, with one hot customer
 * whose calls are slow and every order already in the topic: the stage never holds more than
 * {@code concurrency + queue} records (memory bounded by configuration, not by the backlog), the source pauses
 * while the hot customer's queue is full, the other customers' orders before that bound go through without waiting
 * for the hot one, and in the end every order is written once, each customer's in sequence.
 */
@EmbeddedKafka(shared = true)
class AsyncStageBackpressureIT {

    private static final int PARTITIONS = 3;
    private static final int CONCURRENCY = 8;
    private static final int QUEUE = 24;
    private static final int KEY_QUEUE = 4;
    /** Customer {@code c-0}: orders {@code 0, 60, 120, ...}, all in partition 0. */
    private static final String HOT = "c-0";

    @Test
    @Timeout(120)
    void aHotKeyFillsOnlyItsOwnQueueAndTheStageStaysWithinItsBound(KafkaTestCluster kafka) {
        // nine orders of the hot customer, 1.5 s each: the sixth meets its queue full (one in flight, KEY_QUEUE
        // waiting) and pauses the source, with three more behind it
        int orders = 9 * KeyedOrders.CUSTOMERS;
        RunTopics t = RunTopics.create(kafka, "async-hot", PARTITIONS);
        try (LoadProducer load =
                LoadProducer.start(kafka, t.input(), PARTITIONS, orders, 20_000, KeyedOrders::record)) {
            await().atMost(Duration.ofSeconds(30)).until(load::done);
        }
        ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
        try (TestHttpService service = TestHttpService.start(Duration.ofMillis(5), p -> "\"gold\"")) {
            service.slow(p -> p.endsWith("/" + HOT), Duration.ofMillis(1_500));
            PipelineConfig config = PipelineYaml.of(t.uid(), kafka.bootstrapServers(), t.input(), t.group())
                    .sink("out", t.output())
                    .pipeline(
                            "stages",
                            "{enrich: {concurrency: " + CONCURRENCY + ", queue: " + QUEUE + ", key_queue: " + KEY_QUEUE
                                    + ", timeout: 10s}}")
                    .checkpoint("200ms", "20s")
                    .parse();
            RunningPipeline running =
                    KeyedOrders.enrich(config, service.uri()).start(config, new SimpleMeterRegistry());
            AtomicInteger maxInFlight = new AtomicInteger();
            AtomicInteger maxHeld = new AtomicInteger();
            AtomicBoolean paused = new AtomicBoolean();
            sampler.scheduleWithFixedDelay(
                    () -> {
                        int inFlight = (int) gauge(running.meterRegistry(), EtlMetrics.STAGE_INFLIGHT);
                        int queued = (int) gauge(running.meterRegistry(), EtlMetrics.STAGE_QUEUED);
                        maxInFlight.accumulateAndGet(inFlight, Math::max);
                        maxHeld.accumulateAndGet(inFlight + queued, Math::max);
                        if (running.meterRegistry().find(EtlMetrics.SOURCE_PAUSED).gauges().stream()
                                .anyMatch(g -> g.value() > 0)) {
                            paused.set(true);
                        }
                    },
                    0,
                    5,
                    TimeUnit.MILLISECONDS);
            try {
                // partition 0 up to the hot customer's sixth order: five hot ones (one in flight, KEY_QUEUE
                // waiting) and 95 of other customers, which need not wait for any hot call
                List<String> beforeTheBound = new ArrayList<>();
                for (int i = 0; i < (KEY_QUEUE + 1) * KeyedOrders.CUSTOMERS; i += PARTITIONS) {
                    if (i % KeyedOrders.CUSTOMERS != 0) {
                        beforeTheBound.add(Orders.id(i));
                    }
                }
                await().atMost(Duration.ofSeconds(30))
                        .pollInterval(Duration.ofMillis(50))
                        .until(() ->
                                Delivery.idCounts(kafka, t.output()).keySet().containsAll(beforeTheBound));
                long hotDone = hotOutputs(kafka.readAll(t.output()));
                System.out.printf(
                        "hot key: %d others of partition 0 written with %d hot orders done; in flight at most %d,"
                                + " held at most %d%n",
                        beforeTheBound.size(), hotDone, maxInFlight.get(), maxHeld.get());
                assertThat(hotDone)
                        .as("hot orders written before the others ahead of its queue bound")
                        .isLessThan(KEY_QUEUE + 1);
                await().atMost(Duration.ofSeconds(30)).untilTrue(paused);

                await().atMost(Duration.ofSeconds(60))
                        .pollInterval(Duration.ofMillis(200))
                        .until(() -> Delivery.caughtUp(kafka, t.group(), t.input())
                                || running.result().isDone());
            } finally {
                sampler.shutdownNow();
                running.stopAndWait(Duration.ofSeconds(30));
            }
            assertThat(running.result().join().status()).isEqualTo(PipelineResult.Status.COMPLETED);
            assertThat(maxInFlight.get()).as("calls in flight").isBetween(1, CONCURRENCY);
            assertThat(maxHeld.get()).as("records held by the stage").isLessThanOrEqualTo(CONCURRENCY + QUEUE);
        }

        List<TestRecord> out = kafka.readAll(t.output());
        Map<String, Integer> counts = Delivery.idCounts(out);
        assertThat(Delivery.missing(counts, orders)).isEmpty();
        assertThat(Delivery.duplicates(counts)).isZero();
        assertThat(KeyedOrders.orderViolations(out)).isEmpty();
        assertThat(KeyedOrders.sequences(out).get(HOT)).isSorted().hasSize(orders / KeyedOrders.CUSTOMERS);
        assertThat(kafka.committedOffsets(t.group())).isEqualTo(kafka.endOffsets(t.input()));
    }

    private static long hotOutputs(List<TestRecord> out) {
        return KeyedOrders.sequences(out).getOrDefault(HOT, List.of()).size();
    }

    private static double gauge(MeterRegistry registry, String name) {
        Gauge gauge = registry.find(name).tag(EtlMetrics.TAG_STAGE, "enrich").gauge();
        return gauge == null ? 0 : gauge.value();
    }
}
