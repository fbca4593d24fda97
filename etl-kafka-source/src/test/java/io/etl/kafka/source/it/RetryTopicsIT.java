package io.etl.kafka.source.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etl.core.Pipeline;
import io.etl.core.PipelineResult;
import io.etl.core.RunningPipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.core.error.DeadLetter;
import io.etl.core.error.ErrorPolicy;
import io.etl.core.error.RetryLetter;
import io.etl.core.metrics.EtlMetrics;
import io.etl.kafka.sink.DeadLetterRedrive;
import io.etl.kafka.sink.KafkaSink;
import io.etl.kafka.source.KafkaSource;
import io.etl.testkit.EmbeddedKafka;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.TestRecord;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Delayed retries through retry topics against a real broker: a call that fails twice succeeds on the third attempt,
 * each attempt once its delay has passed, while the rest of its partition flows and its offsets move on; a call that
 * always fails ends in the dead-letter topic with its history.
 */
@EmbeddedKafka(shared = true)
class RetryTopicsIT {

    private static final int PARTITIONS = 2;
    private static final int ORDERS = 300;
    private static final Duration FIRST = Duration.ofSeconds(2);
    private static final Duration SECOND = Duration.ofSeconds(3);
    /** How late an attempt may come after its due time: polls, fetches and a loaded machine. */
    private static final Duration LATE = Duration.ofMillis(1_000);

    /** Orders whose call fails on the first two attempts. */
    private static boolean flaky(int i) {
        return i % 30 == 5;
    }

    /** Orders whose call fails on every attempt. */
    private static boolean doomed(int i) {
        return i % 100 == 7;
    }

    @Test
    @Timeout(120)
    void retriesEachFailedCallWhenDueWithoutHoldingUpTheRestAndDeadLettersWhatNeverSucceedsUntilRedriven(
            KafkaTestCluster kafka) {
        long started = System.currentTimeMillis();
        String uid = Delivery.unique("retry");
        String input = "in-" + uid;
        String out = "out-" + uid;
        String dlt = "dlq-" + uid;
        String group = "group-" + uid;
        kafka.createTopic(input, PARTITIONS);
        kafka.createTopic(out, PARTITIONS);
        kafka.createTopic(dlt, 1);
        kafka.produce(input, ORDERS, i -> Orders.record(i).toPartition(i % PARTITIONS));
        PipelineConfig config = PipelineYaml.of(uid, kafka.bootstrapServers(), input, group)
                .sink("out", out)
                .deadLetter(dlt)
                .retry("[{after: " + FIRST.toSeconds() + "s}, {after: " + SECOND.toSeconds() + "s}]", "dead_letter")
                .pool(2, 4, 100, "5ms")
                .checkpoint("50ms", "10s")
                .parse();
        Calls calls = new Calls();
        Pipeline pipeline = Pipeline.named("orders-retry")
                .from(KafkaSource.from(config.source("orders")).json(Orders.Order.class))
                .map("call", calls::call)
                .onError(ErrorPolicy.RETRY)
                .to(KafkaSink.from(config.sink("out")).json());
        MeterRegistry registry = new SimpleMeterRegistry();
        RunningPipeline running = pipeline.start(config, registry);
        long[] inputCommittedAt = {0};
        DeadLetterRedrive.Report plan;
        DeadLetterRedrive.Report redriven;
        try {
            await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(20))
                    .until(() -> Delivery.caughtUp(kafka, group, input)
                            || running.result().isDone());
            inputCommittedAt[0] = System.currentTimeMillis();
            await().atMost(Duration.ofSeconds(40))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> kafka.endTotal(dlt) >= doomedCount()
                            || running.result().isDone());
            await().atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> caughtUpOnRetryTopics(kafka, group, input)
                            || running.result().isDone());
            assertThat(running.result()).as("still running").isNotDone();

            // the cause is fixed: a redrive of the dead-letter topic sends the records back to their first topic
            calls.fixAll();
            Instant windowEnd = Instant.now().plusSeconds(1);
            plan = DeadLetterRedrive.from(kafka.clientProperties(), dlt)
                    .stage("operator:call")
                    .since(Instant.ofEpochMilli(started))
                    .until(windowEnd)
                    .plan();
            redriven = DeadLetterRedrive.from(kafka.clientProperties(), dlt)
                    .since(Instant.ofEpochMilli(started))
                    .until(windowEnd)
                    .execute();
            await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> (Delivery.caughtUp(kafka, group, input)
                                    && Delivery.idCounts(kafka, out).size() == ORDERS)
                            || running.result().isDone());
        } finally {
            PipelineResult result = running.stopAndWait(Duration.ofSeconds(20));
            assertThat(result.status()).as("%s", result).isEqualTo(PipelineResult.Status.COMPLETED);
        }
        assertThat(plan.matched()).isEqualTo(doomedCount());
        assertThat(plan.sent()).as("a plan writes nothing").isZero();
        assertThat(plan.byTarget()).isEqualTo(Map.of(input, (long) doomedCount()));
        assertThat(redriven.sent()).isEqualTo(doomedCount());

        // every order is in the output: the flaky ones after three calls, the doomed ones after the redrive
        assertThat(Delivery.missing(Delivery.idCounts(kafka, out), ORDERS))
                .as("orders missing from the output")
                .isEmpty();
        for (ConsumerRecord<byte[], byte[]> r : readAll(kafka, out)) {
            String id = Orders.idOf(TestRecord.of(r.key(), r.value()));
            if (doomed(Integer.parseInt(id.substring(2)))) {
                assertThat(text(r, DeadLetterRedrive.REDRIVE_COUNT_HEADER))
                        .as("redrive count of %s", id)
                        .isEqualTo("1");
                assertThat(all(r, RetryLetter.HISTORY_HEADER))
                        .as("a redriven record starts afresh")
                        .isEmpty();
            }
        }
        long firstRetry = Long.MAX_VALUE;
        for (int i = 0; i < ORDERS; i++) {
            List<Long> at = calls.of(Orders.id(i));
            if (flaky(i)) {
                assertThat(at).as("calls of %s", Orders.id(i)).hasSize(3);
                assertDue(Orders.id(i), at.get(0), at.get(1), FIRST);
                assertDue(Orders.id(i), at.get(1), at.get(2), SECOND);
                firstRetry = Math.min(firstRetry, at.get(1));
            } else if (doomed(i)) {
                assertThat(at)
                        .as("calls of %s: three failures, then the redriven one", Orders.id(i))
                        .hasSize(4);
            } else {
                assertThat(at).as("calls of %s", Orders.id(i)).hasSize(1);
            }
        }
        // the rest of the input, its partitions' later orders included, went through (and was committed) before the
        // first retry was even due
        long lastFirstCall = calls.lastFirstCall();
        System.out.printf(
                "retry test: input done %d ms and committed %d ms before the first retry%n",
                firstRetry - lastFirstCall, firstRetry - inputCommittedAt[0]);
        assertThat(lastFirstCall).isLessThan(firstRetry);
        assertThat(inputCommittedAt[0]).isLessThan(firstRetry);

        List<ConsumerRecord<byte[], byte[]>> letters = readAll(kafka, dlt);
        assertThat(letters).hasSize(doomedCount());
        for (ConsumerRecord<byte[], byte[]> letter : letters) {
            assertThat(text(letter, DeadLetter.STAGE_HEADER)).isEqualTo("operator:call");
            assertThat(text(letter, DeadLetter.ERROR_HEADER)).contains("service down for");
            assertThat(text(letter, RetryLetter.TOPIC_HEADER)).isEqualTo(input);
            assertThat(text(letter, RetryLetter.ATTEMPT_HEADER)).isEqualTo("2");
            assertThat(text(letter, RetryLetter.SOURCE_HEADER)).startsWith(input + "-");
            List<String> history = all(letter, RetryLetter.HISTORY_HEADER);
            assertThat(history).hasSize(2);
            assertThat(history.get(0)).contains("\"attempt\":1", "\"stage\":\"operator:call\"", "service down for");
            assertThat(history.get(1)).contains("\"attempt\":2");
        }
        double retried = registry.get(EtlMetrics.RECORDS_RETRIED)
                .tag(EtlMetrics.TAG_STAGE, "call")
                .counter()
                .count();
        assertThat(retried).isEqualTo(2.0 * (flakyCount() + doomedCount()));
    }

    /** The attempt at {@code next} came once {@code delay} after the failure at {@code failed} had passed. */
    private static void assertDue(String id, long failed, long next, Duration delay) {
        long late = next - failed - delay.toMillis();
        System.out.printf("retry test: %s tried again %d ms after its due time%n", id, late);
        assertThat(late).as("%s tried again %d ms after its due time", id, late).isBetween(0L, LATE.toMillis());
    }

    private static boolean caughtUpOnRetryTopics(KafkaTestCluster kafka, String group, String input) {
        Map<TopicPartition, Long> committed = kafka.committedOffsets(group);
        for (String topic :
                List.of(input + "-retry-" + FIRST.toSeconds() + "s", input + "-retry-" + SECOND.toSeconds() + "s")) {
            for (Map.Entry<TopicPartition, Long> e : kafka.endOffsets(topic).entrySet()) {
                if (committed.getOrDefault(e.getKey(), 0L) < e.getValue()) {
                    return false;
                }
            }
        }
        return true;
    }

    private static int flakyCount() {
        int n = 0;
        for (int i = 0; i < ORDERS; i++) {
            n += flaky(i) ? 1 : 0;
        }
        return n;
    }

    private static int doomedCount() {
        int n = 0;
        for (int i = 0; i < ORDERS; i++) {
            n += doomed(i) ? 1 : 0;
        }
        return n;
    }

    /** Every record of {@code topic} with all its headers (a header name may repeat). */
    static List<ConsumerRecord<byte[], byte[]>> readAll(KafkaTestCluster kafka, String topic) {
        Map<String, Object> props = new HashMap<>(kafka.clientProperties());
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
            Map<TopicPartition, Long> end = kafka.endOffsets(topic);
            consumer.assign(end.keySet());
            consumer.seekToBeginning(end.keySet());
            await().atMost(Duration.ofSeconds(20)).until(() -> {
                consumer.poll(Duration.ofMillis(100)).forEach(records::add);
                return end.entrySet().stream().allMatch(e -> consumer.position(e.getKey()) >= e.getValue());
            });
        }
        return records;
    }

    static String text(ConsumerRecord<byte[], byte[]> r, String header) {
        Header h = r.headers().lastHeader(header);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    static List<String> all(ConsumerRecord<byte[], byte[]> r, String header) {
        List<String> values = new ArrayList<>();
        r.headers().headers(header).forEach(h -> values.add(new String(h.value(), StandardCharsets.UTF_8)));
        return values;
    }

    /** The service the {@code call} stage calls: down for the flaky orders' first two calls, always for the doomed. */
    static final class Calls {
        private final Map<String, List<Long>> at = new ConcurrentHashMap<>();
        private volatile boolean fixed;

        Orders.Order call(Orders.Order order) {
            List<Long> times = at.computeIfAbsent(order.id(), k -> new CopyOnWriteArrayList<>());
            times.add(System.currentTimeMillis());
            int i = Integer.parseInt(order.id().substring(2));
            if ((flaky(i) && times.size() <= 2) || (doomed(i) && !fixed)) {
                throw new IllegalStateException("service down for " + order.id());
            }
            return order;
        }

        /** The service no longer fails. */
        void fixAll() {
            fixed = true;
        }

        List<Long> of(String id) {
            return at.getOrDefault(id, List.of());
        }

        /** When the last first call happened. */
        long lastFirstCall() {
            return at.values().stream().mapToLong(l -> l.get(0)).max().orElse(0);
        }
    }
}
