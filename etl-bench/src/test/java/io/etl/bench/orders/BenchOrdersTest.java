package io.etl.bench.orders;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etl.examples.split.Order;
import io.etl.examples.split.RoutedOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class BenchOrdersTest {

    private final ObjectMapper mapper = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    @Test
    void generatesTheSameOrderForTheSameIndex() {
        assertThat(BenchOrders.json(4711)).isEqualTo(BenchOrders.json(4711));
        assertThat(BenchOrders.json(4711)).isNotEqualTo(BenchOrders.json(4712));
    }

    @Test
    void generatesOrdersOfAbout250Bytes() {
        double mean = IntStream.range(0, 10_000)
                .map(i -> BenchOrders.jsonBytes(i).length)
                .average()
                .orElseThrow();
        assertThat(mean).isBetween(235.0, 265.0);
    }

    @Test
    void mixesAboutFivePercentTestOrdersAndTwoPercentUnknownRegions() {
        Map<String, Long> counts = BenchOrders.expectedCounts(100_000);
        assertThat(counts.get("dropped")).isBetween(4_500L, 5_500L);
        assertThat(counts.get("unrouted")).isBetween(1_600L, 2_300L);
        assertThat(counts.get("eu")
                        + counts.get("us")
                        + counts.get("apac")
                        + counts.get("unrouted")
                        + counts.get("dropped"))
                .isEqualTo(100_000L);
        assertThat(BenchOrders.expectedOutputs(100_000)).isEqualTo(100_000L - counts.get("dropped"));
    }

    @Test
    void transformsExactlyLikeTheEtlExample() throws Exception {
        OrderCodec codec = new OrderCodec();
        ObjectMapper exampleJson = new ObjectMapper(); // what the example's json() sink writes its records with
        for (int i = 0; i < 2_000; i++) {
            byte[] in = BenchOrders.jsonBytes(i);
            Order order = mapper.readValue(in, Order.class); // the etl example's own types
            OrderCodec.Routed routed = codec.transform(in);
            if (order.isTest()) {
                assertThat(routed).as("order %d", i).isNull();
                assertThat(BenchOrders.expectedBranch(i)).isEqualTo("dropped");
                continue;
            }
            assertThat(BenchOrders.BRANCHES[routed.branch()])
                    .as("order %d", i)
                    .isEqualTo(BenchOrders.expectedBranch(i));
            assertThat(new String(routed.json(), StandardCharsets.UTF_8))
                    .as("order %d", i)
                    .isEqualTo(exampleJson.writeValueAsString(RoutedOrder.from(order)));
            JsonNode out = mapper.readTree(routed.json());
            List<String> fields = new ArrayList<>();
            out.fieldNames().forEachRemaining(fields::add);
            assertThat(fields).containsExactly("id", "customer", "region", "amount", "amount_cents", "status", "ts");
            assertThat(out.get("amount").decimalValue()).isEqualByComparingTo(order.amount());
            assertThat(out.get("id").asText()).isEqualTo(BenchOrders.id(i));
        }
    }

    @Test
    void roundsCentsHalfUp() {
        OrderCodec codec = new OrderCodec();
        byte[] in =
                "{\"id\":\"x\",\"customer\":\"c\",\"region\":\"EU\",\"amount\":1.005,\"status\":\"new\",\"ts\":1,\"notes\":\"n\"}"
                        .getBytes();
        OrderCodec.Routed routed = codec.transform(in);
        assertThat(routed.branch()).isZero();
        assertThat(new String(routed.json())).contains("\"amount_cents\":101").doesNotContain("notes");
    }

    @Test
    void dropsWhatIsNotAnOrder() {
        assertThat(new OrderCodec().transform("not json".getBytes())).isNull();
        assertThat(new OrderCodec().transform("{\"id\":\"x\",\"region\":\"eu\",\"status\":\"new\"}".getBytes()))
                .isNull();
    }
}
