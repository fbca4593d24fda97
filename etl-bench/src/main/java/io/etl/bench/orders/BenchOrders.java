package io.etl.bench.orders;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The race's input: deterministic JSON orders of about 250 bytes, keyed by id. Order {@code i} is always
 * the same, so every implementation gets byte-identical input and the expected output counts are known
 * without reading anything back.
 *
 * <p>About 5% have status {@code test} (dropped), about 2% a region no branch knows ({@code mars},
 * {@code moon}, {@code EU-West}: routed to the unrouted topic), the rest are spread over {@code eu},
 * {@code us} and {@code apac}. One amount in ten has three decimals, so rounding to cents matters. The
 * {@code notes} field pads each order to ~250 bytes; it is dropped by the reshape, so outputs are ~150
 * bytes.
 *
 * <pre>{@code
 * byte[] value = BenchOrders.json(42);
 * Map<String, Long> expected = BenchOrders.expectedCounts(200_000);  // eu, us, apac, unrouted, dropped
 * }</pre>
 */
public final class BenchOrders {

    /** The epoch millisecond of order 0 (2025-01-01T00:00:00Z); each next order is 37 ms later. */
    public static final long BASE_TS = 1_735_689_600_000L;
    /** The branches in routing order, then the fallback. */
    public static final String[] BRANCHES = {"eu", "us", "apac", "unrouted"};

    private static final String[] REGIONS = {"eu", "us", "apac"};
    private static final String[] UNKNOWN_REGIONS = {"mars", "moon", "EU-West"};
    private static final String[] STATUSES = {"new", "paid", "shipped"};
    private static final String FILLER = "please deliver between nine and five, ring twice, the dog is friendly;"
            + " invoice to the head office, reference on every page, thanks a lot for the help";

    private BenchOrders() {}

    /** The id (and Kafka key) of order {@code i}. */
    public static String id(int i) {
        return String.format("ord-%07d", i);
    }

    /** Whether order {@code i} is a test order (dropped by every implementation). */
    public static boolean isTest(int i) {
        return Long.remainderUnsigned(mix(i), 100) < 5;
    }

    /** The region of order {@code i} as written in its JSON. */
    public static String region(int i) {
        long h = mix(i);
        return Long.remainderUnsigned(h >>> 16, 100) < 2
                ? UNKNOWN_REGIONS[(int) Long.remainderUnsigned(h >>> 24, UNKNOWN_REGIONS.length)]
                : REGIONS[(int) Long.remainderUnsigned(h >>> 32, REGIONS.length)];
    }

    /** Order {@code i} as JSON text, about 250 bytes. */
    public static String json(int i) {
        long h = mix(i);
        String status = isTest(i) ? "test" : STATUSES[(int) Long.remainderUnsigned(h >>> 8, STATUSES.length)];
        long thousandths = 100 + Long.remainderUnsigned(h >>> 40, 999_900L);
        String amount = Long.remainderUnsigned(h >>> 20, 10) == 0
                ? BigDecimal.valueOf(thousandths, 3).toPlainString()
                : BigDecimal.valueOf(thousandths / 10, 2).toPlainString();
        int noteLength = 115 + (int) Long.remainderUnsigned(h >>> 48, 20);
        StringBuilder sb = new StringBuilder(260);
        sb.append("{\"id\":\"")
                .append(id(i))
                .append("\",\"customer\":\"cust-")
                .append(String.format("%04d", Long.remainderUnsigned(h >>> 12, 5_000)))
                .append("\",\"region\":\"")
                .append(region(i))
                .append("\",\"amount\":")
                .append(amount)
                .append(",\"status\":\"")
                .append(status)
                .append("\",\"ts\":")
                .append(BASE_TS + 37L * i)
                .append(",\"notes\":\"")
                .append(FILLER, 0, Math.min(noteLength, FILLER.length()))
                .append("\"}");
        return sb.toString();
    }

    /** Order {@code i} as UTF-8 JSON bytes. */
    public static byte[] jsonBytes(int i) {
        return json(i).getBytes(StandardCharsets.UTF_8);
    }

    /** The branch ({@code eu}, {@code us}, {@code apac}, {@code unrouted}) order {@code i} goes to, or {@code dropped}. */
    public static String expectedBranch(int i) {
        if (isTest(i)) {
            return "dropped";
        }
        String region = region(i);
        for (String known : REGIONS) {
            if (known.equalsIgnoreCase(region)) {
                return known;
            }
        }
        return "unrouted";
    }

    /** Counts per branch for the first {@code count} orders: {@code eu, us, apac, unrouted, dropped}. */
    public static Map<String, Long> expectedCounts(int count) {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (String key : new String[] {"eu", "us", "apac", "unrouted", "dropped"}) {
            counts.put(key, 0L);
        }
        for (int i = 0; i < count; i++) {
            counts.merge(expectedBranch(i), 1L, Long::sum);
        }
        return counts;
    }

    /** Orders among the first {@code count} that must reach an output topic. */
    public static long expectedOutputs(int count) {
        return count - expectedCounts(count).get("dropped");
    }

    /** SplitMix64's finaliser: a well-spread, deterministic hash of the index. */
    private static long mix(long x) {
        long z = x * 0x9E3779B97F4A7C15L + 0x632BE59BD9B4E019L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
