package io.etl.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etl.bench.impl.Contestant;
import io.etl.bench.impl.RaceTopics;
import io.etl.bench.orders.BenchOrders;
import io.etl.testkit.EmbeddedKafka;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.TestRecord;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Runs every contestant on a tiny input so the race harness cannot rot: right counts per output topic,
 * committed offsets, and the reshape visible in the output. The race itself is never run by the build.
 */
@EmbeddedKafka(shared = true)
class SplitRaceIT {

    private static final int ORDERS = 2_000;
    private final ObjectMapper mapper = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    @ParameterizedTest
    @EnumSource(Contestant.class)
    void routesEveryOrderOnceAndCommits(Contestant contestant, KafkaTestCluster kafka) throws Exception {
        String prefix = "it-" + contestant.name().toLowerCase() + "-" + System.nanoTime();
        RaceTopics topics = RaceTopicsSetup.prepare(kafka, prefix, ORDERS);

        RunResult result = new RaceRunner(kafka.bootstrapServers(), Map.of())
                .run(contestant.implementation(), topics, ORDERS, Duration.ofSeconds(60));

        Map<String, Long> expected = new LinkedHashMap<>(BenchOrders.expectedCounts(ORDERS));
        expected.remove("dropped");
        assertThat(result.perTopic()).isEqualTo(expected);
        assertThat(result.outputs()).isEqualTo(BenchOrders.expectedOutputs(ORDERS));
        assertThat(result.elapsedMillis()).isPositive();
        assertThat(result.peakHeapBytes()).isPositive();
        assertThat(kafka.committedTotal(topics.group())).isEqualTo(ORDERS);

        List<String> outputs = topics.outputs();
        for (int b = 0; b < outputs.size(); b++) {
            for (TestRecord record : kafka.readAll(outputs.get(b))) {
                JsonNode out = mapper.readTree(record.value());
                int index = Integer.parseInt(out.get("id").asText().substring("ord-".length()));
                assertThat(new String(record.key(), StandardCharsets.UTF_8)).isEqualTo(BenchOrders.id(index));
                assertThat(BenchOrders.expectedBranch(index)).isEqualTo(BenchOrders.BRANCHES[b]);
                assertThat(out.has("notes")).isFalse();
                BigDecimal amount = mapper.readTree(BenchOrders.jsonBytes(index))
                        .get("amount")
                        .decimalValue();
                assertThat(out.get("amount_cents").asLong())
                        .isEqualTo(amount.movePointRight(2)
                                .setScale(0, RoundingMode.HALF_UP)
                                .longValueExact());
            }
        }
        RaceTopicsSetup.delete(kafka, topics);
    }
}
