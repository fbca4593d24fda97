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
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The {@code on_error} policies of an asynchronous stage against a real broker and a real local HTTP service that
 * refuses one customer (404) and answers another 503 twice: the 503s are retried with backoff and the customer's
 * orders come through; with {@code skip} the refused ones are dropped and counted and everything else is written and
 * committed; with {@code fail} the pipeline stops naming the stage and the record, and nothing is committed at or
 * past the refused record. ({@code dead_letter}: {@code EnrichOrdersIT} and {@link AsyncStageExactlyOnceIT}.)
 */
@EmbeddedKafka(shared = true)
class AsyncStageErrorPoliciesIT {

    private static final int PARTITIONS = 3;
    private static final int ORDERS = 600;
    /** Refused with 404: orders 13, 73, 133, ..., the first at offset 4 of partition 1. */
    private static final String REFUSED = "c-13";
    /** Answered 503 twice, then 200. */
    private static final String FLAKY = "c-21";

    @Test
    @Timeout(90)
    void skipDropsAndCountsTheRefusedOrdersAndRetriesTheUnavailableOnes(KafkaTestCluster kafka) {
        RunTopics t = topicsWithOrders(kafka, "async-skip");
        try (TestHttpService service = service()) {
            RunningPipeline running = start(kafka, t, service, "skip");
            PipelineResult result =
                    Delivery.runUntilCaughtUp(kafka, running, t.group(), t.input(), Duration.ofSeconds(60));

            assertThat(result.status()).as("%s", result).isEqualTo(PipelineResult.Status.COMPLETED);
            assertThat(sum(running.meterRegistry(), EtlMetrics.RECORDS_DROPPED))
                    .as("orders skipped")
                    .isEqualTo(ORDERS / KeyedOrders.CUSTOMERS);
            assertThat(sum(running.meterRegistry(), EtlMetrics.STAGE_RETRIES))
                    .as("retries")
                    .isEqualTo(2);
        }
        List<TestRecord> out = kafka.readAll(t.output());
        Map<String, Integer> counts = Delivery.idCounts(out);
        List<String> missing = new ArrayList<>(Delivery.missing(counts, ORDERS));
        List<String> refused = new ArrayList<>();
        for (int i = 13; i < ORDERS; i += KeyedOrders.CUSTOMERS) {
            refused.add(Orders.id(i));
        }
        assertThat(missing).as("orders not written").containsExactlyElementsOf(refused);
        assertThat(Delivery.duplicates(counts)).isZero();
        assertThat(KeyedOrders.sequences(out).get(FLAKY))
                .containsExactlyElementsOf(LongStream.range(0, ORDERS / KeyedOrders.CUSTOMERS)
                        .boxed()
                        .toList());
        assertThat(KeyedOrders.orderViolations(out)).isEmpty();
        assertThat(kafka.committedOffsets(t.group())).isEqualTo(kafka.endOffsets(t.input()));
    }

    @Test
    @Timeout(90)
    void failStopsThePipelineNamingTheRecordAndCommitsNothingFromItOn(KafkaTestCluster kafka) {
        RunTopics t = topicsWithOrders(kafka, "async-fail");
        PipelineResult result;
        try (TestHttpService service = service()) {
            RunningPipeline running = start(kafka, t, service, "fail");
            await().atMost(Duration.ofSeconds(60)).until(() -> running.result().isDone());
            result = running.result().join();
        }

        assertThat(result.status()).isEqualTo(PipelineResult.Status.FAILED);
        assertThat(result.failureCause())
                .get()
                .asString()
                .contains(t.input() + "-1@4")
                .contains("'enrich'")
                .contains("service answered 404");
        Map<TopicPartition, Long> committed = kafka.committedOffsets(t.group());
        assertThat(committed.getOrDefault(new TopicPartition(t.input(), 1), 0L))
                .as("committed offset of the refused record's partition")
                .isLessThanOrEqualTo(4L);
        Map<String, Integer> out = Delivery.idCounts(kafka, t.output());
        Delivery.assertCommittedIsWritten(committed, out, PARTITIONS, "after the failure");
        assertThat(KeyedOrders.sequences(kafka.readAll(t.output()))).doesNotContainKey(REFUSED);
    }

    private static RunTopics topicsWithOrders(KafkaTestCluster kafka, String prefix) {
        RunTopics t = RunTopics.create(kafka, prefix, PARTITIONS);
        try (LoadProducer load =
                LoadProducer.start(kafka, t.input(), PARTITIONS, ORDERS, 20_000, KeyedOrders::record)) {
            await().atMost(Duration.ofSeconds(30)).until(load::done);
        }
        return t;
    }

    private static TestHttpService service() {
        AtomicInteger unavailable = new AtomicInteger();
        return TestHttpService.start(Duration.ofMillis(5), p -> "\"gold\"")
                .fail(p -> p.endsWith("/" + FLAKY) && unavailable.getAndIncrement() < 2, 503)
                .fail(p -> p.endsWith("/" + REFUSED), 404);
    }

    private static RunningPipeline start(KafkaTestCluster kafka, RunTopics t, TestHttpService service, String onError) {
        PipelineConfig config = t.yaml(kafka)
                .pipeline(
                        "stages", "{enrich: {concurrency: 16, attempts: 3, backoff: 50ms, on_error: " + onError + "}}")
                .checkpoint("200ms", "20s")
                .parse();
        return KeyedOrders.enrich(config, service.uri()).start(config, new SimpleMeterRegistry());
    }

    private static double sum(MeterRegistry registry, String counter) {
        return registry.find(counter).counters().stream()
                .mapToDouble(Counter::count)
                .sum();
    }
}
