package io.etl.kafka.source.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.core.error.DeadLetter;
import io.etl.testkit.EmbeddedKafka;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.TestRecord;
import io.etl.testkit.http.TestHttpService;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * An asynchronous stage under {@code pipeline.delivery: exactly_once}, against a real broker and a real local HTTP
 * service that refuses one customer: a pipeline JVM killed with SIGKILL twice while calls are in flight still
 * writes each order exactly once ({@code read_committed}), each customer's in sequence, and each refused order
 * exactly once to the dead-letter topic with the service's answer; a transaction never holds the output of a
 * record whose call had not completed when it committed.
 */
@EmbeddedKafka(shared = true)
class AsyncStageExactlyOnceIT {

    private static final int PARTITIONS = 3;
    private static final String REFUSED = "c-13";

    @RegisterExtension
    final ChildPipelines children = new ChildPipelines();

    @Test
    @Timeout(150)
    void writesEachOrderExactlyOnceInEachCustomersOrderAcrossTwoSigkillsWithCallsInFlight(
            KafkaTestCluster kafka, @TempDir Path dir) {
        int orders = 4_800;
        RunTopics t = RunTopics.create(kafka, "async-eos", PARTITIONS);
        String deadLetters = "dlq-" + t.uid();
        kafka.createTopic(deadLetters, 1);
        try (TestHttpService service = TestHttpService.start(Duration.ofMillis(20), p -> "\"gold\"")) {
            service.fail(p -> p.endsWith("/" + REFUSED), 404);
            Path yaml = t.staticMemberYaml(kafka)
                    .pipeline("delivery", "exactly_once")
                    .pipeline("stages", "{enrich: {concurrency: 32, timeout: 5s, on_error: dead_letter}}")
                    .deadLetter(deadLetters)
                    .sessionTimeout("6s")
                    .pool(4, 4, 500, "5ms")
                    .checkpoint("200ms", "10s")
                    .write(dir);
            String kind = KeyedOrders.ENRICH_KIND + service.uri();
            long[] killAt = {orders / 5, orders / 2};
            int[] kills = {0};
            try (LoadProducer load =
                    LoadProducer.start(kafka, t.input(), PARTITIONS, orders, 800, KeyedOrders::record)) {
                children.start(kind, yaml, t.uid() + "-0");
                children.awaitWhileRunning(Duration.ofSeconds(120), Duration.ofMillis(100), current -> {
                    long total = kafka.committedTotal(t.group());
                    if (kills[0] < killAt.length && total >= killAt[kills[0]]) {
                        current.kill9();
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
        List<TestRecord> letters = kafka.readAll(deadLetters);
        Map<String, Integer> counts = Delivery.idCounts(out);
        System.out.printf(
                "async exactly-once test: %d outputs, %d dead letters over %d orders%n",
                out.size(), letters.size(), orders);
        assertThat(Delivery.duplicates(counts)).as("duplicated outputs").isZero();
        assertThat(letters).allSatisfy(l -> {
            assertThat(l.keyAsString()).isEqualTo(REFUSED);
            assertThat(l.headerAsString(DeadLetter.STAGE_HEADER)).isEqualTo("operator:enrich");
            assertThat(l.headerAsString(DeadLetter.ERROR_HEADER)).contains("service answered 404");
        });
        Map<String, Integer> lettered = Delivery.idCounts(letters);
        assertThat(Delivery.duplicates(lettered)).as("duplicated dead letters").isZero();
        Map<String, Integer> all = new HashMap<>(counts);
        lettered.forEach((id, n) -> all.merge(id, n, Integer::sum));
        assertThat(Delivery.missing(all, orders))
                .as("orders neither written nor dead-lettered")
                .isEmpty();
        assertThat(Delivery.duplicates(all))
                .as("orders both written and dead-lettered")
                .isZero();

        int perCustomer = orders / KeyedOrders.CUSTOMERS;
        List<Long> inSequence = LongStream.range(0, perCustomer).boxed().toList();
        Map<String, List<Long>> sequences = KeyedOrders.sequences(out);
        assertThat(sequences).doesNotContainKey(REFUSED).hasSize(KeyedOrders.CUSTOMERS - 1);
        List<String> outOfOrder = new ArrayList<>();
        sequences.forEach((customer, seqs) -> {
            if (!seqs.equals(inSequence)) {
                outOfOrder.add(customer + ": " + seqs);
            }
        });
        assertThat(outOfOrder)
                .as("customers whose outputs are not exactly their sequence")
                .isEmpty();
        assertThat(kafka.committedOffsets(t.group())).isEqualTo(new HashMap<>(kafka.endOffsets(t.input())));
    }
}
