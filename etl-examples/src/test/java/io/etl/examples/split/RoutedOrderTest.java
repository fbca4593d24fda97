package io.etl.examples.split;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RoutedOrderTest {

    private final ObjectMapper mapper = new ObjectMapper();

    @ParameterizedTest
    @CsvSource({
        "123.45, 12345",
        "0.125, 13", // a tie rounds away from zero (half-up)
        "0.124, 12",
        "1.005, 101", // exact decimal: a double would have given 100
        "-0.125, -13",
        "7, 700",
        "0.001, 0"
    })
    void amountCentsRoundsHalfUp(String amount, long cents) {
        assertThat(RoutedOrder.cents(new BigDecimal(amount))).isEqualTo(cents);
    }

    @Test
    void missingAmountIsAnError() {
        assertThatThrownBy(() -> RoutedOrder.cents(null)).isInstanceOf(ArithmeticException.class);
    }

    @Test
    void reshapeDropsNotesAndAddsCents() throws Exception {
        Order order = mapper.readValue(
                "{\"id\":\"o1\",\"customer\":\"c\",\"region\":\"eu\",\"amount\":1.005,\"status\":\"paid\",\"ts\":5,"
                        + "\"notes\":\"secret note\",\"extra\":true}",
                Order.class);

        JsonNode out = mapper.valueToTree(RoutedOrder.from(order));

        assertThat(out.get("amount_cents").asLong()).isEqualTo(101);
        assertThat(out.get("amount").decimalValue()).isEqualByComparingTo("1.005");
        assertThat(out.has("notes")).isFalse();
        assertThat(out.fieldNames())
                .toIterable()
                .containsExactly("id", "customer", "region", "amount", "amount_cents", "status", "ts");
    }

    @Test
    void generatedOrdersAreDeterministicAndParse() throws Exception {
        for (int i = 0; i < 2_000; i++) {
            Order parsed = mapper.readValue(OrderGenerator.json(i), Order.class);
            assertThat(parsed).isEqualTo(OrderGenerator.order(i));
            assertThat(parsed.id()).isEqualTo(OrderGenerator.id(i));
        }
    }

    @Test
    void generatorMixMatchesItsDescription() {
        var counts = OrderGenerator.expectedCounts(100_000);

        assertThat(counts.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(100_000);
        assertThat(counts.get("dropped")).isBetween(4_500L, 5_500L);
        assertThat(counts.get("unrouted")).isBetween(1_500L, 2_500L);
        for (String region : KafkaToKafkaSplit.REGIONS) {
            assertThat(counts.get(region)).isBetween(29_000L, 33_500L);
        }
    }
}
