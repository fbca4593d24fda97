package io.etl.bench.orders;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * The workload's logic for the two baselines (Kafka Streams and the kafka-clients loop), written the way
 * the etl example does it so the race compares runtimes, not transforms: Jackson databind into a record
 * with a {@link BigDecimal} amount, drop {@code status == "test"}, reshape ({@code amount_cents} added
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

    private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);
    private static final String[] REGIONS = {"eu", "us", "apac"};

    private final ObjectReader reader;
    private final ObjectWriter writer;

    /** A codec with its own {@link ObjectMapper}. */
    public OrderCodec() {
        ObjectMapper mapper = new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
        this.reader = mapper.readerFor(InOrder.class);
        this.writer = mapper.writerFor(OutOrder.class);
    }

    /**
     * Decodes, filters, reshapes and routes one order.
     *
     * @param value the input record's value
     * @return the output and its branch, or {@code null} when the order is dropped (a test order, or a
     *         value that is not an order: skipped, as the etl example's source does with {@code on_error: skip})
     */
    public Routed transform(byte[] value) {
        InOrder in;
        try {
            in = reader.readValue(value);
        } catch (IOException e) {
            return null;
        }
        if ("test".equals(in.status())) {
            return null;
        }
        long cents;
        try {
            cents = in.amount()
                    .multiply(HUNDRED)
                    .setScale(0, RoundingMode.HALF_UP)
                    .longValueExact();
        } catch (ArithmeticException | NullPointerException e) {
            return null;
        }
        OutOrder out = new OutOrder(in.id(), in.customer(), in.region(), in.amount(), cents, in.status(), in.ts());
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
        for (int b = 0; b < REGIONS.length; b++) {
            if (REGIONS[b].equalsIgnoreCase(region)) {
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

    /** The input order; {@code notes} is read and discarded like the example's {@code Order}. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record InOrder(
            @JsonProperty("id") String id,
            @JsonProperty("customer") String customer,
            @JsonProperty("region") String region,
            @JsonProperty("amount") BigDecimal amount,
            @JsonProperty("status") String status,
            @JsonProperty("ts") long ts,
            @JsonProperty("notes") String notes) {}

    /** The output order. */
    @JsonPropertyOrder({"id", "customer", "region", "amount", "amount_cents", "status", "ts"})
    record OutOrder(
            @JsonProperty("id") String id,
            @JsonProperty("customer") String customer,
            @JsonProperty("region") String region,
            @JsonProperty("amount") BigDecimal amount,
            @JsonProperty("amount_cents") long amountCents,
            @JsonProperty("status") String status,
            @JsonProperty("ts") long ts) {}
}
