package io.etl.examples.split;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * An order as the example writes it to its regional topic: the input without {@code notes}, plus
 * {@code amount_cents}, the amount in whole cents rounded half-up.
 * <pre>{@code
 * {"id":"ord-0000042","customer":"cust-0317","region":"eu","amount":123.45,"amount_cents":12345,
 *  "status":"paid","ts":1735689600000}
 * }</pre>
 *
 * @param id          order id (the Kafka key is kept from the input record)
 * @param customer    customer id
 * @param region      region as received
 * @param amount      amount as received
 * @param amountCents {@code amount × 100}, rounded half-up to a whole number ({@code 0.125 → 13},
 *                    {@code -0.125 → -13})
 * @param status      status as received
 * @param ts          event time, epoch milliseconds
 */
@JsonPropertyOrder({"id", "customer", "region", "amount", "amount_cents", "status", "ts"})
public record RoutedOrder(
        @JsonProperty("id") String id,
        @JsonProperty("customer") String customer,
        @JsonProperty("region") String region,
        @JsonProperty("amount") BigDecimal amount,
        @JsonProperty("amount_cents") long amountCents,
        @JsonProperty("status") String status,
        @JsonProperty("ts") long ts) {

    private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);

    /** Reshapes an input order: drops {@code notes}, adds {@code amount_cents}. */
    public static RoutedOrder from(Order order) {
        return new RoutedOrder(
                order.id(),
                order.customer(),
                order.region(),
                order.amount(),
                cents(order.amount()),
                order.status(),
                order.ts());
    }

    /**
     * {@code amount × 100} rounded half-up (away from zero on a tie) to a whole number of cents. Exact:
     * the amount is a decimal, never a binary double, so {@code 1.005} gives {@code 101}, not {@code 100}.
     *
     * @throws ArithmeticException when the amount is missing or does not fit a {@code long} of cents
     */
    public static long cents(BigDecimal amount) {
        if (amount == null) {
            throw new ArithmeticException("amount is missing");
        }
        return amount.multiply(HUNDRED).setScale(0, RoundingMode.HALF_UP).longValueExact();
    }

    /** Whether the order belongs to {@code name}, ignoring case. */
    public boolean inRegion(String name) {
        return name.equalsIgnoreCase(region);
    }
}
