package io.etl.bench.orders;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.etl.examples.split.KafkaToKafkaSplit;
import io.etl.examples.split.Order;
import io.etl.examples.split.RoutedOrder;
import java.io.IOException;

/**
 * The workload's logic for the two baselines (Kafka Streams and the kafka-clients loop), on the etl
 * example's own types so the race compares runtimes, not transforms: Jackson databind into the example's
 * {@link Order}, drop test orders, reshape with {@link RoutedOrder#from} ({@code amount_cents} added
 * half-up, {@code notes} removed), route by region ignoring case, serialize with Jackson.
 *
 * <pre>{@code
 * OrderCodec codec = new OrderCodec();
 * OrderCodec.Routed out = codec.transform(valueBytes);   // null: dropped (test order or not an order)
 * producer.send(new ProducerRecord<>(topics[out.branch()], key, out.json()));
 * }</pre>
 *
 * <p>Thread-safe: Jackson readers and writers are immutable.
 */
public final class OrderCodec {

    /** Branch index of orders whose region no branch knows. */
    public static final int UNROUTED = 3;

    private final ObjectReader reader;
    private final ObjectWriter writer;

    /** A codec with its own {@link ObjectMapper}. */
    public OrderCodec() {
        ObjectMapper mapper = new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
        this.reader = mapper.readerFor(Order.class);
        this.writer = mapper.writerFor(RoutedOrder.class);
    }

    /**
     * Decodes, filters, reshapes and routes one order.
     *
     * @param value the input record's value
     * @return the output and its branch, or {@code null} when the order is dropped (a test order, or a
     *         value that is not an order: skipped, as the etl example's source does with {@code on_error: skip})
     */
    public Routed transform(byte[] value) {
        Order in;
        try {
            in = reader.readValue(value);
        } catch (IOException e) {
            return null;
        }
        if (in.isTest()) {
            return null;
        }
        RoutedOrder out;
        try {
            out = RoutedOrder.from(in);
        } catch (ArithmeticException e) {
            return null; // no amount, or one too large for cents
        }
        byte[] json;
        try {
            json = writer.writeValueAsBytes(out);
        } catch (IOException e) {
            return null;
        }
        return new Routed(branchOf(in.region()), json);
    }

    /** Branch index 0..2 for {@code eu}, {@code us}, {@code apac} (ignoring case), else {@link #UNROUTED}. */
    public static int branchOf(String region) {
        for (int b = 0; b < KafkaToKafkaSplit.REGIONS.size(); b++) {
            if (KafkaToKafkaSplit.REGIONS.get(b).equalsIgnoreCase(region)) {
                return b;
            }
        }
        return UNROUTED;
    }

    /**
     * A reshaped order ready to send.
     *
     * @param branch 0..3: eu, us, apac, unrouted
     * @param json   the output value
     */
    public record Routed(int branch, byte[] json) {}
}
