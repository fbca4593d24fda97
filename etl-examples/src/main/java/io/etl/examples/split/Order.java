package io.etl.examples.split;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.math.BigDecimal;

/**
 * An order as it arrives on the {@code orders} topic, as JSON keyed by {@code id}:
 * <pre>{@code
 * {"id":"ord-0000042","customer":"cust-3590","region":"apac","amount":906.27,"status":"paid",
 *  "ts":1735689601554,"notes":"call before delivery"}
 * }</pre>
 * The amount is read as a {@link BigDecimal} so that no binary rounding happens before
 * {@link RoutedOrder#from(Order)} turns it into cents. Fields the example does not know are ignored.
 *
 * @param id       order id, also the Kafka key
 * @param customer customer id
 * @param region   {@code eu}, {@code us}, {@code apac}, or anything else (routed to {@code orders-unrouted})
 * @param amount   amount in the currency's main unit, e.g. {@code 123.45}
 * @param status   {@code new}, {@code paid}, {@code shipped}, or {@code test} (dropped)
 * @param ts       event time, epoch milliseconds
 * @param notes    free text; not forwarded
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record Order(
        String id, String customer, String region, BigDecimal amount, String status, long ts, String notes) {

    /** The status of orders that only exist to test the shop; the pipeline drops them. */
    public static final String TEST_STATUS = "test";

    /** Whether this is a test order. */
    public boolean isTest() {
        return TEST_STATUS.equals(status);
    }

    /** Whether the order belongs to {@code name}, ignoring case. */
    public boolean inRegion(String name) {
        return name.equalsIgnoreCase(region);
    }
}
