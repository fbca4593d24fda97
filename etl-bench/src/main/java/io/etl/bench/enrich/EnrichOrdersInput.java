package io.etl.bench.enrich;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.etl.examples.enrich.EnrichedOrder;
import io.etl.examples.enrich.OrderEvent;
import io.etl.testkit.TestRecord;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The race's orders: order {@code i} belongs to customer {@code i % keys} (its Kafka key) and is that customer's
 * order number {@code i / keys}; and the JSON codec the contestants other than etl use for the example's records.
 */
final class EnrichOrdersInput {

    static final ObjectMapper JSON = new ObjectMapper();

    private EnrichOrdersInput() {}

    static TestRecord order(int i, int keys) {
        return TestRecord.of("c-" + (i % keys), orderJson(i, keys));
    }

    /** Order {@code i}'s JSON value. */
    static String orderJson(int i, int keys) {
        String customer = "c-" + (i % keys);
        return "{\"id\":\"o-" + i + "\",\"customer\":\"" + customer + "\",\"seq\":" + (i / keys) + ",\"amount_cents\":"
                + (100 + i % 10_000) + "}";
    }

    static OrderEvent decode(byte[] value) {
        try {
            return JSON.readValue(value, OrderEvent.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static byte[] encode(EnrichedOrder order) {
        try {
            return JSON.writeValueAsBytes(order);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
