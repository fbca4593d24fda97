package io.etl.bench;

import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.LongStream;

/**
 * The p99 latency of each second of a latency window, grouped by the second each order was sent in. A window's
 * overall p99 cannot tell a tail spread evenly over the window from a few seconds in which everything on the
 * machine stalled; the median of the seconds' p99 and the worst second can.
 *
 * @param seconds       how many seconds the window's orders were sent in
 * @param medianP99     the median over those seconds of each second's p99, milliseconds
 * @param worstP99      the largest second's p99, milliseconds
 * @param worstSecondAt the start of that second, epoch milliseconds
 * @param slowestSentAt when the order with the longest latency of all was sent, epoch milliseconds
 */
record TailBySecond(int seconds, long medianP99, long worstP99, long worstSecondAt, long slowestSentAt) {

    /**
     * Groups {@code latencies[i]} by the second {@code sentAtMillis[i]} falls in.
     *
     * @throws IllegalArgumentException when the arrays differ in length or are empty
     */
    static TailBySecond of(long[] latencies, long[] sentAtMillis) {
        if (latencies.length != sentAtMillis.length || latencies.length == 0) {
            throw new IllegalArgumentException("need one send time per latency, and at least one: " + latencies.length
                    + " latencies, " + sentAtMillis.length + " send times");
        }
        Map<Long, LongStream.Builder> bySecond = new TreeMap<>();
        int slowest = 0;
        for (int i = 0; i < latencies.length; i++) {
            bySecond.computeIfAbsent(Math.floorDiv(sentAtMillis[i], 1000L), s -> LongStream.builder())
                    .add(latencies[i]);
            if (latencies[i] > latencies[slowest]) {
                slowest = i;
            }
        }
        long[] p99s = new long[bySecond.size()];
        int i = 0;
        long worst = Long.MIN_VALUE;
        long worstAt = 0;
        for (Map.Entry<Long, LongStream.Builder> second : bySecond.entrySet()) {
            long p99 = percentile(second.getValue().build().sorted().toArray(), 99);
            p99s[i++] = p99;
            if (p99 > worst) {
                worst = p99;
                worstAt = second.getKey() * 1000L;
            }
        }
        Arrays.sort(p99s);
        return new TailBySecond(p99s.length, p99s[(p99s.length - 1) / 2], worst, worstAt, sentAtMillis[slowest]);
    }

    /** The nearest-rank percentile {@code p} (0-100) of {@code sorted}. */
    static long percentile(long[] sorted, double p) {
        int index = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }
}
