package io.etl.bench.avro;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etl.bench.orders.BenchOrders;
import io.etl.bench.orders.OrderCodec;
import io.etl.examples.split.Order;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * The race's orders as Avro, and the transform both contestants run: drop test orders, reshape (the amount
 * in cents added half-up, the notes removed), route by region ignoring case, as the JSON race does.
 *
 * <pre>{@code
 * GenericRecord in = AvroOrders.order(7);
 * GenericRecord out = AvroOrders.route(in);     // null: a test order
 * int branch = AvroOrders.branch(out);          // 0..3: eu, us, apac, unrouted
 * }</pre>
 */
public final class AvroOrders {

    /** The input orders. */
    public static final Schema ORDER = new Schema.Parser()
            .parse("{\"type\":\"record\",\"name\":\"Order\",\"namespace\":\"io.etl.bench.avro\",\"fields\":["
                    + "{\"name\":\"id\",\"type\":\"string\"},{\"name\":\"customer\",\"type\":\"string\"},"
                    + "{\"name\":\"region\",\"type\":\"string\"},{\"name\":\"amount\",\"type\":\"string\"},"
                    + "{\"name\":\"status\",\"type\":\"string\"},{\"name\":\"ts\",\"type\":\"long\"},"
                    + "{\"name\":\"notes\",\"type\":\"string\"}]}");

    /** The routed orders. */
    public static final Schema ROUTED = new Schema.Parser()
            .parse("{\"type\":\"record\",\"name\":\"RoutedOrder\",\"namespace\":\"io.etl.bench.avro\",\"fields\":["
                    + "{\"name\":\"id\",\"type\":\"string\"},{\"name\":\"customer\",\"type\":\"string\"},"
                    + "{\"name\":\"region\",\"type\":\"string\"},{\"name\":\"amount\",\"type\":\"string\"},"
                    + "{\"name\":\"amount_cents\",\"type\":\"long\"},{\"name\":\"status\",\"type\":\"string\"},"
                    + "{\"name\":\"ts\",\"type\":\"long\"}]}");

    private static final ObjectMapper JSON =
            new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);

    private AvroOrders() {}

    /** Order {@code i} of {@link BenchOrders}, as an Avro record. */
    public static GenericRecord order(int i) {
        Order o;
        try {
            o = JSON.readValue(BenchOrders.jsonBytes(i), Order.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        GenericRecord r = new GenericData.Record(ORDER);
        r.put("id", o.id());
        r.put("customer", o.customer());
        r.put("region", o.region());
        r.put("amount", o.amount().toPlainString());
        r.put("status", o.status());
        r.put("ts", o.ts());
        r.put("notes", o.notes());
        return r;
    }

    /** Whether {@code order} is a test order. */
    public static boolean isTest(GenericRecord order) {
        return Order.TEST_STATUS.contentEquals((CharSequence) order.get("status"));
    }

    /** The routed form of {@code order}, or null for a test order. */
    public static GenericRecord route(GenericRecord order) {
        return isTest(order) ? null : reshape(order);
    }

    /** The routed form of {@code order}, which is not a test order. */
    public static GenericRecord reshape(GenericRecord order) {
        String amount = order.get("amount").toString();
        GenericRecord out = new GenericData.Record(ROUTED);
        out.put("id", order.get("id"));
        out.put("customer", order.get("customer"));
        out.put("region", order.get("region"));
        out.put("amount", amount);
        out.put(
                "amount_cents",
                new BigDecimal(amount)
                        .multiply(HUNDRED)
                        .setScale(0, RoundingMode.HALF_UP)
                        .longValueExact());
        out.put("status", order.get("status"));
        out.put("ts", order.get("ts"));
        return out;
    }

    /** The branch of a routed order: 0..3 for eu, us, apac, unrouted. */
    public static int branch(GenericRecord routed) {
        return OrderCodec.branchOf(routed.get("region").toString());
    }
}
