package io.etl.examples.split;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Deterministic sample orders for the example: order {@code i} is always the same, so a test can tell
 * where any order must end up without reading the input back.
 *
 * <p>Roughly: 5% have status {@code test} (dropped), 2% a region no branch knows ({@code mars},
 * {@code moon}, {@code EU-West}: routed to {@code orders-unrouted}), the rest are spread evenly over
 * {@code eu}, {@code us} and {@code apac}. About one amount in ten has three decimals, so the half-up
 * rounding to cents is exercised. Ids are {@code ord-0000000}, {@code ord-0000001}, ...
 */
public final class OrderGenerator {

    /** The epoch millisecond of order 0 (2025-01-01T00:00:00Z); each next order is 37 ms later. */
    public static final long BASE_TS = 1_735_689_600_000L;

    private static final String[] REGIONS = {"eu", "us", "apac"};
    private static final String[] UNKNOWN_REGIONS = {"mars", "moon", "EU-West"};
    private static final String[] STATUSES = {"new", "paid", "shipped"};
    private static final String[] NOTES = {
        "", "leave at the door", "gift wrap, no invoice", "call before delivery", "fragile: \"glass\"", "Zoë's order ✓"
    };

    private OrderGenerator() {}

    /** Order number {@code i} (0-based). */
    public static Order order(int i) {
        long h = mix(i);
        int bucket = (int) Long.remainderUnsigned(h, 100);
        String status =
                bucket < 5 ? Order.TEST_STATUS : STATUSES[(int) Long.remainderUnsigned(h >>> 8, STATUSES.length)];
        int regionBucket = (int) Long.remainderUnsigned(h >>> 16, 100);
        String region = regionBucket < 2
                ? UNKNOWN_REGIONS[(int) Long.remainderUnsigned(h >>> 24, UNKNOWN_REGIONS.length)]
                : REGIONS[(int) Long.remainderUnsigned(h >>> 32, REGIONS.length)];
        long thousandths = 100 + Long.remainderUnsigned(h >>> 40, 99_900_000L / 100); // 0.100 .. ~999.999
        BigDecimal amount = Long.remainderUnsigned(h >>> 20, 10) == 0
                ? BigDecimal.valueOf(thousandths, 3) // three decimals: rounding matters
                : BigDecimal.valueOf(thousandths / 10, 2); // ordinary cents
        String customer = String.format("cust-%04d", Long.remainderUnsigned(h >>> 12, 5_000));
        String notes = NOTES[(int) Long.remainderUnsigned(h >>> 44, NOTES.length)];
        return new Order(id(i), customer, region, amount, status, BASE_TS + 37L * i, notes);
    }

    /** The id (and Kafka key) of order {@code i}. */
    public static String id(int i) {
        return String.format("ord-%07d", i);
    }

    /** Order {@code i} as the JSON the example reads. */
    public static String json(int i) {
        Order o = order(i);
        StringBuilder sb = new StringBuilder(200);
        sb.append("{\"id\":");
        quote(sb, o.id());
        sb.append(",\"customer\":");
        quote(sb, o.customer());
        sb.append(",\"region\":");
        quote(sb, o.region());
        sb.append(",\"amount\":").append(o.amount().toPlainString());
        sb.append(",\"status\":");
        quote(sb, o.status());
        sb.append(",\"ts\":").append(o.ts());
        sb.append(",\"notes\":");
        quote(sb, o.notes());
        return sb.append('}').toString();
    }

    /** Order {@code i} as JSON bytes. */
    public static byte[] jsonBytes(int i) {
        return json(i).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Where the first {@code count} orders must end up: counts per branch name ({@code eu}, {@code us},
     * {@code apac}, {@code unrouted}) and {@code dropped}, in that order.
     */
    public static Map<String, Long> expectedCounts(int count) {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (String key : new String[] {"eu", "us", "apac", "unrouted", "dropped"}) {
            counts.put(key, 0L);
        }
        for (int i = 0; i < count; i++) {
            counts.merge(expectedBranch(order(i)), 1L, Long::sum);
        }
        return counts;
    }

    /** The branch name an order goes to ({@code eu}, {@code us}, {@code apac}, {@code unrouted}) or {@code dropped}. */
    public static String expectedBranch(Order order) {
        if (order.isTest()) {
            return "dropped";
        }
        for (String region : REGIONS) {
            if (order.inRegion(region)) {
                return region;
            }
        }
        return "unrouted";
    }

    private static void quote(StringBuilder sb, String s) {
        sb.append('"');
        for (int k = 0; k < s.length(); k++) {
            char c = s.charAt(k);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }

    /** SplitMix64's finaliser: a well-spread, deterministic hash of the index. */
    private static long mix(long x) {
        long z = x * 0x9E3779B97F4A7C15L + 0x632BE59BD9B4E019L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
