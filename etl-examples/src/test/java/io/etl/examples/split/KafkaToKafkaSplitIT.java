package io.etl.examples.split;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etl.core.PipelineResult;
import io.etl.runtime.StopSignal;
import io.etl.testkit.EmbeddedKafka;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.TestRecord;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Runs the example's embedded-broker path (sample orders, run until accounted for, summary) on the shared
 * test broker, with topics and group unique to this test, so the example cannot rot.
 */
@EmbeddedKafka(shared = true)
class KafkaToKafkaSplitIT {

    private static final int RECORDS = 5_000;
    private final ObjectMapper json = new ObjectMapper();

    @Test
    void accountsForEveryOrderAndRoutesEachByRegion(KafkaTestCluster kafka) throws Exception {
        String run = UUID.randomUUID().toString().substring(0, 8);
        Map<String, String> vars = new HashMap<>();
        vars.put("GROUP_ID", "split-it-" + run);
        vars.put("ORDERS_TOPIC", "orders-" + run);
        vars.put("ORDERS_EU_TOPIC", "orders-eu-" + run);
        vars.put("ORDERS_US_TOPIC", "orders-us-" + run);
        vars.put("ORDERS_APAC_TOPIC", "orders-apac-" + run);
        vars.put("ORDERS_UNROUTED_TOPIC", "orders-unrouted-" + run);
        Function<String, String> env = vars::get;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        SplitRun.Outcome outcome = SplitRun.toCompletion(
                kafka,
                KafkaToKafkaSplit.defaultYaml(),
                env,
                new SplitRun.Options(
                        RECORDS,
                        null,
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8),
                        false,
                        StopSignal.manual()));

        // the summary identity, as printed for scripts
        String[] lines = out.toString(StandardCharsets.UTF_8).split("\\R");
        Map<String, Long> summary = SplitSummary.parseLine(lines[lines.length - 1]);
        assertThat(summary.get("input")).isEqualTo(RECORDS);
        assertThat(summary.get("orders-eu")
                        + summary.get("orders-us")
                        + summary.get("orders-apac")
                        + summary.get("unrouted")
                        + summary.get("dropped"))
                .isEqualTo(RECORDS);
        Map<String, Long> expected = OrderGenerator.expectedCounts(RECORDS);
        assertThat(summary)
                .containsEntry("orders-eu", expected.get("eu"))
                .containsEntry("orders-us", expected.get("us"))
                .containsEntry("orders-apac", expected.get("apac"))
                .containsEntry("unrouted", expected.get("unrouted"))
                .containsEntry("dropped", expected.get("dropped"));
        assertThat(outcome.exitCode()).isZero();
        assertThat(outcome.result().status()).isEqualTo(PipelineResult.Status.COMPLETED);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("in 5,000/5,000");

        // a few known orders, each on the topic of its region, key kept, reshaped
        Map<String, Map<String, TestRecord>> byTopic = Map.of(
                "eu", index(kafka.readAll(vars.get("ORDERS_EU_TOPIC"))),
                "us", index(kafka.readAll(vars.get("ORDERS_US_TOPIC"))),
                "apac", index(kafka.readAll(vars.get("ORDERS_APAC_TOPIC"))),
                "unrouted", index(kafka.readAll(vars.get("ORDERS_UNROUTED_TOPIC"))));
        int checkedTest = 0;
        int checkedUnrouted = 0;
        for (int i = 0; i < 400; i++) {
            Order order = OrderGenerator.order(i);
            String branch = OrderGenerator.expectedBranch(order);
            for (Map.Entry<String, Map<String, TestRecord>> topic : byTopic.entrySet()) {
                boolean here = topic.getValue().containsKey(order.id());
                assertThat(here)
                        .as("order %s (%s, %s) on %s", order.id(), order.region(), order.status(), topic.getKey())
                        .isEqualTo(topic.getKey().equals(branch));
            }
            if (branch.equals("dropped")) {
                checkedTest++;
                continue;
            }
            checkedUnrouted += branch.equals("unrouted") ? 1 : 0;
            JsonNode value = json.readTree(byTopic.get(branch).get(order.id()).valueAsString());
            assertThat(value.get("amount_cents").asLong()).isEqualTo(RoutedOrder.cents(order.amount()));
            assertThat(value.has("notes")).isFalse();
            assertThat(value.get("region").asText()).isEqualTo(order.region());
        }
        assertThat(checkedTest).as("test orders among the first 400").isPositive();
        assertThat(checkedUnrouted).as("unrouted orders among the first 400").isPositive();
    }

    /** Records by key; every key must appear once (no duplicates in a clean run). */
    private static Map<String, TestRecord> index(List<TestRecord> records) {
        Map<String, TestRecord> byKey = records.stream()
                .collect(Collectors.toMap(TestRecord::keyAsString, r -> r, (a, b) -> {
                    throw new AssertionError("duplicate key " + a.keyAsString());
                }));
        return byKey;
    }
}
