package io.etl.kafka.source.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etl.testkit.TestRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Locale;

/**
 * The orders of the {@code kafka_to_kafka_split} example: generated input, the reshape step and what the
 * tests expect where.
 */
final class Orders {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String[] REGIONS = {"eu", "us", "apac", "mars"};

    private Orders() {}

    /** An input order. */
    record Order(String id, String customer, String region, double amount, String status, long ts, String notes) {

        boolean isTest() {
            return "test".equals(status);
        }

        Routed reshape() {
            return new Routed(id, customer, region.toLowerCase(Locale.ROOT), Math.round(amount * 100), ts);
        }
    }

    /** What the pipeline writes. */
    record Routed(String id, String customer, String region, long amountCents, long ts) {}

    static String id(int i) {
        return "o-" + i;
    }

    static String region(int i) {
        return REGIONS[i % REGIONS.length];
    }

    /** Every tenth order is a test order that the split pipeline drops. */
    static boolean isTest(int i) {
        return i % 10 == 3;
    }

    /** The output branch of order {@code i}: eu, us, apac or unrouted. */
    static String branch(int i) {
        String r = region(i);
        return r.equals("mars") ? "unrouted" : r;
    }

    static String json(int i) {
        return "{\"id\":\"" + id(i) + "\",\"customer\":\"c-" + (i % 97) + "\",\"region\":\"" + region(i)
                + "\",\"amount\":" + (i % 1000) + "." + (i % 100 < 10 ? "0" : "") + (i % 100)
                + ",\"status\":\"" + (isTest(i) ? "test" : "new") + "\",\"ts\":" + (1_700_000_000_000L + i)
                + ",\"notes\":\"deliver to the back door, ring twice, leave with the neighbour if nobody answers\"}";
    }

    /** Order {@code i} keyed by its id. */
    static TestRecord record(int i) {
        return TestRecord.of(id(i), json(i));
    }

    /** The id in an output (or input) JSON value. */
    static String idOf(TestRecord r) {
        try {
            JsonNode node = JSON.readTree(r.value());
            return node.get("id").asText();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
