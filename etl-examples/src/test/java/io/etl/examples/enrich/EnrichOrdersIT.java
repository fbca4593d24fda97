package io.etl.examples.enrich;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.etl.core.Pipeline;
import io.etl.core.PipelineResult;
import io.etl.core.RunningPipeline;
import io.etl.core.config.AsyncOrdering;
import io.etl.core.config.PipelineConfig;
import io.etl.core.config.PipelineSection;
import io.etl.core.config.StageConfig;
import io.etl.core.error.DeadLetter;
import io.etl.kafka.sink.KafkaSink;
import io.etl.kafka.source.KafkaSource;
import io.etl.testkit.EmbeddedKafka;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.TestRecord;
import io.etl.testkit.http.TestHttpService;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The {@code enrich_orders} example against a real broker and a real local customer service with injected latency
 * and failures: every order enriched, each customer's orders in order, unknown customers and calls that time out
 * dead-lettered with the reason, a slow customer not holding up the others, and partition order.
 */
@EmbeddedKafka(shared = true)
class EnrichOrdersIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int PARTITIONS = 3;

    /** Topics and a group of one run. */
    private record Run(String uid, Map<String, String> env, PipelineConfig config) {
        String orders() {
            return "orders-" + uid;
        }

        String enriched() {
            return "enriched-" + uid;
        }

        String deadLetters() {
            return "dlt-" + uid;
        }

        String group() {
            return "enrich-" + uid;
        }
    }

    private static Run run(KafkaTestCluster kafka) throws IOException {
        String uid = Long.toHexString(System.nanoTime());
        Map<String, String> env = Map.of(
                "KAFKA_BROKERS", kafka.bootstrapServers(),
                "ORDERS_TOPIC", "orders-" + uid,
                "ENRICHED_TOPIC", "enriched-" + uid,
                "DEAD_LETTER_TOPIC", "dlt-" + uid,
                "GROUP_ID", "enrich-" + uid);
        kafka.createTopic("orders-" + uid, PARTITIONS);
        kafka.createTopic("enriched-" + uid, PARTITIONS);
        kafka.createTopic("dlt-" + uid, 1);
        String yaml = Files.readString(Path.of("src", "main", "resources", "enrich_orders.yaml"));
        return new Run(uid, env, PipelineConfig.parse(yaml, env::get));
    }

    /** {@code count} orders over {@code customers} customers, keyed by customer, each customer's in sequence. */
    private static void produce(KafkaTestCluster kafka, String topic, int count, int customers) {
        kafka.produce(topic, count, i -> order(i, "c-" + (i % customers), i / customers));
    }

    private static TestRecord order(int i, String customer, long seq) {
        return TestRecord.of(
                customer,
                "{\"id\":\"o-" + i + "\",\"customer\":\"" + customer + "\",\"seq\":" + seq + ",\"amount_cents\":"
                        + (100 + i) + "}");
    }

    private static EnrichedOrder enriched(TestRecord r) {
        try {
            return JSON.readValue(r.value(), EnrichedOrder.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs {@code pipeline} until {@code expected} records are committed, then stops it. */
    private static PipelineResult runUntilCommitted(
            KafkaTestCluster kafka, Run run, Pipeline pipeline, PipelineConfig config, long expected) {
        RunningPipeline running = pipeline.start(config, new SimpleMeterRegistry());
        try {
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> running.state().isTerminal() || kafka.committedTotal(run.group()) >= expected);
        } finally {
            running.stopAndWait(Duration.ofSeconds(30));
        }
        return running.result().join();
    }

    /** Each customer's outputs, in the order the output topic holds them. */
    private static Map<String, List<Long>> sequencesByCustomer(List<TestRecord> out) {
        Map<String, List<Long>> seqs = new HashMap<>();
        for (TestRecord r : out) {
            EnrichedOrder e = enriched(r);
            seqs.computeIfAbsent(e.customer(), c -> new ArrayList<>()).add(e.seq());
        }
        return seqs;
    }

    @Test
    @Timeout(90)
    void enrichesEveryOrderKeepingEachCustomersOrder(KafkaTestCluster kafka) throws Exception {
        try (TestHttpService service = CustomerService.start(Duration.ofMillis(10))) {
            Run run = run(kafka);
            produce(kafka, run.orders(), 3_000, 150);

            PipelineResult result = runUntilCommitted(
                    kafka,
                    run,
                    EnrichOrders.pipeline(run.config(), CustomerClient.of(service.uri())),
                    run.config(),
                    3_000);

            assertThat(result.status()).as("%s", result).isEqualTo(PipelineResult.Status.COMPLETED);
            List<TestRecord> out = kafka.readAll(run.enriched());
            assertThat(out).hasSize(3_000);
            assertThat(out).allSatisfy(r -> {
                EnrichedOrder e = enriched(r);
                assertThat(r.keyAsString()).isEqualTo(e.customer());
                assertThat(e.tier())
                        .isEqualTo(CustomerService.customer(e.customer()).tier());
            });
            sequencesByCustomer(out)
                    .forEach((customer, seqs) -> assertThat(seqs)
                            .as("sequence numbers of %s", customer)
                            .containsExactlyElementsOf(
                                    LongStream.range(0, 20).boxed().toList()));
            assertThat(service.maxConcurrent()).as("calls in flight at once").isGreaterThan(8);
        }
    }

    @Test
    @Timeout(90)
    void deadLettersAnUnknownCustomerAndACallThatTimesOutWithTheReason(KafkaTestCluster kafka) throws Exception {
        try (TestHttpService service = CustomerService.start(Duration.ofMillis(5))) {
            service.fail(p -> p.endsWith("/c-unknown"), 404).slow(p -> p.endsWith("/c-stuck"), Duration.ofSeconds(30));
            Run run = run(kafka);
            PipelineConfig config = withStage(
                    run.config(),
                    s -> StageConfig.from(s).timeout(Duration.ofMillis(300)).build());
            List<TestRecord> input = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                input.add(order(i, "c-" + (i % 20), i / 20));
            }
            input.add(order(1000, "c-unknown", 0));
            input.add(order(1001, "c-stuck", 0));
            kafka.produce(run.orders(), input);

            PipelineResult result = runUntilCommitted(
                    kafka, run, EnrichOrders.pipeline(config, CustomerClient.of(service.uri())), config, input.size());

            assertThat(result.status()).as("%s", result).isEqualTo(PipelineResult.Status.COMPLETED);
            assertThat(kafka.readAll(run.enriched())).hasSize(200);
            List<TestRecord> letters = kafka.readAll(run.deadLetters());
            assertThat(letters).hasSize(2);
            Map<String, TestRecord> byKey = new HashMap<>();
            letters.forEach(l -> byKey.put(l.keyAsString(), l));
            assertThat(byKey.get("c-unknown").headerAsString(DeadLetter.ERROR_HEADER))
                    .contains("answered 404 for c-unknown");
            TestRecord stuck = byKey.get("c-stuck");
            assertThat(stuck.valueAsString()).isEqualTo(input.get(201).valueAsString());
            assertThat(stuck.headerAsString(DeadLetter.STAGE_HEADER)).isEqualTo("operator:enrich");
            assertThat(stuck.headerAsString(DeadLetter.ERROR_HEADER))
                    .contains("TimeoutException")
                    .contains("took longer than PT0.3S");
            assertThat(stuck.headerAsString(DeadLetter.ATTEMPTS_HEADER)).isEqualTo("3");
        }
    }

    @Test
    @Timeout(90)
    void aSlowCustomerDoesNotHoldUpTheOthers(KafkaTestCluster kafka) throws Exception {
        try (TestHttpService service = CustomerService.start(Duration.ofMillis(5))) {
            service.slow(p -> p.endsWith("/c-hot"), Duration.ofMillis(1_500));
            Run run = run(kafka);
            List<TestRecord> input = new ArrayList<>();
            for (int i = 0; i < 1_000; i++) {
                input.add(i % 200 == 0 ? order(i, "c-hot", i / 200) : order(i, "c-" + (i % 40), i));
            }
            kafka.produce(run.orders(), input);
            RunningPipeline running = EnrichOrders.pipeline(run.config(), CustomerClient.of(service.uri()))
                    .start(run.config(), new SimpleMeterRegistry());
            try {
                long start = System.nanoTime();
                // five hot orders take 7.5 s one after another; the 995 others are done long before
                await().atMost(Duration.ofSeconds(7))
                        .pollInterval(Duration.ofMillis(100))
                        .until(() -> kafka.endTotal(run.enriched()) >= 995);
                long othersDone = (System.nanoTime() - start) / 1_000_000;
                long hotDone = kafka.readAll(run.enriched()).stream()
                        .filter(r -> r.keyAsString().equals("c-hot"))
                        .count();
                System.out.printf("slow customer: 995 others enriched after %d ms, %d of 5 hot%n", othersDone, hotDone);
                assertThat(hotDone).isLessThan(5);

                await().atMost(Duration.ofSeconds(40)).until(() -> kafka.committedTotal(run.group()) >= 1_000);
            } finally {
                running.stopAndWait(Duration.ofSeconds(30));
            }
            assertThat(sequencesByCustomer(kafka.readAll(run.enriched())).get("c-hot"))
                    .containsExactly(0L, 1L, 2L, 3L, 4L);
        }
    }

    @Test
    @Timeout(90)
    void partitionOrderEmitsEachPartitionInOffsetOrder(KafkaTestCluster kafka) throws Exception {
        try (TestHttpService service = CustomerService.start(Duration.ofMillis(5))) {
            service.slow(p -> p.endsWith("/c-3"), Duration.ofMillis(80));
            Run run = run(kafka);
            PipelineConfig config = withStage(
                    run.config(),
                    s -> StageConfig.from(s).ordering(AsyncOrdering.PARTITION).build());
            produce(kafka, run.orders(), 1_500, 50);
            CustomerClient client = CustomerClient.of(service.uri());
            Map<Integer, List<Long>> seen = new HashMap<>();
            List<String> disorder = new CopyOnWriteArrayList<>();
            // spotless:off
            Pipeline pipeline = Pipeline.named("enrich_orders")
                    .from(KafkaSource.from(config.source("orders")).json(OrderEvent.class))
                    .<EnrichedOrder>mapAsync("enrich", o -> client.lookup(o.customer()).thenApply(o::enrich))
                    .filterRecord("observe", (o, meta) -> {
                        List<Long> offsets = seen.computeIfAbsent(meta.partition(), p -> new ArrayList<>());
                        if (!offsets.isEmpty() && offsets.get(offsets.size() - 1) >= meta.offset()) {
                            disorder.add(meta.partition() + "@" + meta.offset());
                        }
                        offsets.add(meta.offset());
                        return true;
                    })
                    .to(KafkaSink.from(config.sink("enriched")).json());
            // spotless:on

            PipelineResult result = runUntilCommitted(kafka, run, pipeline, config, 1_500);

            assertThat(result.status()).as("%s", result).isEqualTo(PipelineResult.Status.COMPLETED);
            assertThat(disorder)
                    .as("records leaving the stage out of offset order")
                    .isEmpty();
            assertThat(seen.values().stream().mapToInt(List::size).sum()).isEqualTo(1_500);
            assertThat(service.maxConcurrent()).isGreaterThan(8);
        }
    }

    @Test
    @Timeout(90)
    void theBlockingVariantEnrichesEveryOrderToo(KafkaTestCluster kafka) throws Exception {
        try (TestHttpService service = CustomerService.start(Duration.ofMillis(10))) {
            Run run = run(kafka);
            produce(kafka, run.orders(), 600, 30);

            PipelineResult result = runUntilCommitted(
                    kafka,
                    run,
                    EnrichOrders.blockingPipeline(run.config(), CustomerClient.of(service.uri())),
                    run.config(),
                    600);

            assertThat(result.status()).as("%s", result).isEqualTo(PipelineResult.Status.COMPLETED);
            List<TestRecord> out = kafka.readAll(run.enriched());
            assertThat(out).hasSize(600);
            sequencesByCustomer(out)
                    .values()
                    .forEach(seqs -> assertThat(seqs).isSorted().hasSize(20));
            assertThat(service.maxConcurrent()).isGreaterThan(8);
        }
    }

    /** {@code config} with the {@code enrich} stage's settings changed by {@code change}. */
    private static PipelineConfig withStage(PipelineConfig config, UnaryOperator<StageConfig> change) {
        StageConfig enrich = change.apply(config.pipeline().stages().get("enrich"));
        return PipelineConfig.from(config)
                .pipeline(PipelineSection.from(config.pipeline())
                        .stage("enrich", enrich)
                        .build())
                .build();
    }
}
