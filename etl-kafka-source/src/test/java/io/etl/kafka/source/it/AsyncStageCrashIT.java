package io.etl.kafka.source.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etl.testkit.EmbeddedKafka;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.TestRecord;
import io.etl.testkit.http.TestHttpService;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pipeline JVM whose asynchronous stage calls a real local HTTP service, many calls in flight: killed with
 * SIGKILL three times it loses nothing, never commits ahead of durable output and keeps each customer's order; a
 * SIGTERM lets the calls in flight finish and commits behind them, so the next run repeats nothing.
 */
@EmbeddedKafka(shared = true)
class AsyncStageCrashIT {

    private static final int PARTITIONS = 3;
    private static final String STAGES = "{enrich: {concurrency: 32, timeout: 5s}}";

    @RegisterExtension
    final ChildPipelines children = new ChildPipelines();

    @Test
    @Timeout(150)
    void losesNothingAndKeepsEachKeysOrderAcrossThreeSigkillsWithCallsInFlight(
            KafkaTestCluster kafka, @TempDir Path dir) {
        int orders = 6_000;
        long seed = System.nanoTime();
        Random random = new Random(seed);
        RunTopics t = RunTopics.create(kafka, "async-crash", PARTITIONS);
        try (TestHttpService service = TestHttpService.start(Duration.ofMillis(20), p -> "\"gold\"")) {
            Path yaml = t.staticMemberYaml(kafka)
                    .pipeline("stages", STAGES)
                    .sessionTimeout("6s")
                    .checkpoint("100ms", "10s")
                    .write(dir);
            String kind = KeyedOrders.ENRICH_KIND + service.uri();
            long[] killAt = {
                (long) (orders * (0.10 + 0.15 * random.nextDouble())),
                (long) (orders * (0.40 + 0.15 * random.nextDouble())),
                (long) (orders * (0.70 + 0.15 * random.nextDouble()))
            };
            System.out.printf(
                    "async crash test seed %d, kills at committed totals %d, %d, %d%n",
                    seed, killAt[0], killAt[1], killAt[2]);
            int[] kills = {0};
            long[] lastCommitted = {0};
            long[] killedAt = {0};
            try (LoadProducer load =
                    LoadProducer.start(kafka, t.input(), PARTITIONS, orders, 1_000, KeyedOrders::record)) {
                children.start(kind, yaml, t.uid() + "-0");
                children.awaitWhileRunning(Duration.ofSeconds(120), Duration.ofMillis(150), current -> {
                    Map<TopicPartition, Long> committed = kafka.committedOffsets(t.group());
                    Map<String, Integer> out = Delivery.idCounts(kafka, t.output());
                    long total = Delivery.assertCommittedIsWritten(committed, out, PARTITIONS, "kill " + kills[0]);
                    assertThat(total)
                            .as("committed total never goes backwards")
                            .isGreaterThanOrEqualTo(lastCommitted[0]);
                    lastCommitted[0] = total;
                    if (kills[0] < killAt.length && total >= killAt[kills[0]] && total > killedAt[0]) {
                        current.kill9();
                        killedAt[0] = total;
                        kills[0]++;
                        System.out.printf(
                                "SIGKILL %d at committed total %d, produced %d, service calls so far %d%n",
                                kills[0], total, load.sent(), service.requests());
                        children.start(kind, yaml, t.uid() + "-" + kills[0]);
                        return false;
                    }
                    return kills[0] == killAt.length && load.done() && total == orders;
                });
            }
            children.last().stopOnceAssigned();
        }

        List<TestRecord> out = kafka.readAll(t.output());
        Map<String, Integer> counts = Delivery.idCounts(out);
        System.out.printf(
                "async crash test: %d outputs, %d duplicates over %d orders%n",
                out.size(), Delivery.duplicates(counts), orders);
        assertThat(Delivery.missing(counts, orders))
                .as("orders missing from the output")
                .isEmpty();
        assertThat(KeyedOrders.orderViolations(out))
                .as("outputs out of their customer's order")
                .isEmpty();
        assertThat(kafka.committedOffsets(t.group())).isEqualTo(new HashMap<>(kafka.endOffsets(t.input())));
    }

    @Test
    @Timeout(120)
    void aSigtermLetsTheCallsInFlightFinishAndTheNextRunRepeatsNothing(KafkaTestCluster kafka, @TempDir Path dir) {
        int orders = 1_000;
        RunTopics t = RunTopics.create(kafka, "async-drain", PARTITIONS);
        try (TestHttpService service = TestHttpService.start(Duration.ofMillis(150), p -> "\"gold\"")) {
            Path yaml = t.staticMemberYaml(kafka)
                    .pipeline("stages", "{enrich: {concurrency: 48, timeout: 5s}}")
                    .sessionTimeout("6s")
                    .checkpoint("100ms", "10s")
                    .write(dir);
            String kind = KeyedOrders.ENRICH_KIND + service.uri();
            try (LoadProducer load =
                    LoadProducer.start(kafka, t.input(), PARTITIONS, orders, 20_000, KeyedOrders::record)) {
                await().atMost(Duration.ofSeconds(30)).until(load::done);
            }
            ChildPipeline first = children.start(kind, yaml, t.uid() + "-0");
            await().atMost(Duration.ofSeconds(60)).until(() -> kafka.committedTotal(t.group()) >= orders / 4);
            long requestsAtStop = service.requests();
            first.stopWithin(Duration.ofSeconds(30));

            long committed = kafka.committedTotal(t.group());
            Map<String, Integer> out = Delivery.idCounts(kafka, t.output());
            System.out.printf(
                    "async drain test: %d calls made before SIGTERM, %d committed, %d written at the stop%n",
                    requestsAtStop, committed, out.size());
            assertThat(committed).as("commits behind what the stop drained").isLessThan(orders);
            assertThat(out)
                    .as("everything written is committed: nothing is left to repeat")
                    .hasSize((int) committed);
            Delivery.assertCommittedIsWritten(kafka.committedOffsets(t.group()), out, PARTITIONS, "after SIGTERM");

            children.start(kind, yaml, t.uid() + "-1");
            await().atMost(Duration.ofSeconds(60)).until(() -> Delivery.caughtUp(kafka, t.group(), t.input()));
            children.last().stopWithin(Duration.ofSeconds(30));
        }
        List<TestRecord> out = kafka.readAll(t.output());
        Map<String, Integer> counts = Delivery.idCounts(out);
        assertThat(Delivery.missing(counts, orders)).isEmpty();
        assertThat(Delivery.duplicates(counts))
                .as("duplicates after a drained stop")
                .isZero();
        assertThat(KeyedOrders.orderViolations(out)).isEmpty();
    }
}
