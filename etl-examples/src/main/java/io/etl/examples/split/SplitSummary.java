package io.etl.examples.split;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What a run of {@code kafka_to_kafka_split} did: how many orders came in, how many were dropped, how
 * many landed on each output topic, and how long it took. Every order is accounted for when
 * {@code eu + us + apac + unrouted + dropped == input}; under at-least-once a retried batch may add
 * duplicates, which show up as a positive {@link #surplus()}, never hidden.
 *
 * <p>{@link #line()} is the last line the program prints, for scripts:
 * <pre>{@code
 * summary: input=100000 dropped=5043 orders-eu=31641 orders-us=31700 orders-apac=29700 unrouted=1916 elapsed_ms=3120
 * }</pre>
 *
 * @param input     orders read (embedded run: written to the input topic)
 * @param dropped   orders dropped on purpose: test orders filtered out, plus records skipped by an error policy
 * @param skipped   the part of {@code dropped} skipped by an error policy (not an order, not decodable)
 * @param outputs   messages per output, keyed by branch ({@code eu}, {@code us}, {@code apac},
 *                  {@code unrouted}), in that order
 * @param topics    the topic of each branch
 * @param expected  for a run on generated data, what each branch and {@code dropped} should hold; else empty
 * @param elapsedMs milliseconds from the pipeline's start until every input was accounted for (or it stopped)
 */
public record SplitSummary(
        long input,
        long dropped,
        long skipped,
        Map<String, Long> outputs,
        Map<String, String> topics,
        Map<String, Long> expected,
        long elapsedMs) {

    /** The branches in the order they are reported. */
    public static final String[] BRANCHES = {"eu", "us", "apac", "unrouted"};

    public SplitSummary {
        outputs = Map.copyOf(outputs);
        topics = Map.copyOf(topics);
        expected = expected == null ? Map.of() : Map.copyOf(expected);
    }

    /** Messages on one branch's topic. */
    public long output(String branch) {
        return outputs.getOrDefault(branch, 0L);
    }

    /** All messages written, over every branch. */
    public long written() {
        long sum = 0;
        for (String b : BRANCHES) {
            sum += output(b);
        }
        return sum;
    }

    /** {@code written + dropped - input}: 0 when every order is accounted for exactly once. */
    public long surplus() {
        return written() + dropped - input;
    }

    /** Whether {@code eu + us + apac + unrouted + dropped == input}. */
    public boolean accountedExactly() {
        return surplus() == 0;
    }

    /** Whether some order is missing (fewer outputs than inputs), which at-least-once never allows. */
    public boolean lost() {
        if (surplus() < 0) {
            return true;
        }
        for (Map.Entry<String, Long> e : expected.entrySet()) {
            long actual = "dropped".equals(e.getKey()) ? dropped : output(e.getKey());
            if (actual < e.getValue()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Orders processed per second over {@link #elapsedMs()}: those accounted for, at most the input (duplicates
     * are not counted twice), so that a run stopped early shows the rate it reached.
     */
    public double recordsPerSecond() {
        return elapsedMs <= 0 ? 0 : Math.min(input, written() + dropped) * 1000.0 / elapsedMs;
    }

    /** The machine-readable last line. */
    public String line() {
        return "summary: input=" + input + " dropped=" + dropped + " orders-eu=" + output("eu")
                + " orders-us=" + output("us") + " orders-apac=" + output("apac") + " unrouted=" + output("unrouted")
                + " elapsed_ms=" + elapsedMs;
    }

    /** Parses a {@link #line()} back into its numbers (key to value, in order); for tests and scripts. */
    public static Map<String, Long> parseLine(String line) {
        if (!line.startsWith("summary: ")) {
            throw new IllegalArgumentException("not a summary line: " + line);
        }
        Map<String, Long> values = new LinkedHashMap<>();
        for (String pair : line.substring("summary: ".length()).trim().split("\\s+")) {
            int eq = pair.indexOf('=');
            values.put(pair.substring(0, eq), Long.parseLong(pair.substring(eq + 1)));
        }
        return values;
    }

    /** Prints the table, then {@link #line()} as the very last line. */
    public void print(PrintStream out) {
        boolean withExpected = !expected.isEmpty();
        out.println();
        out.printf(
                Locale.ROOT,
                "  %-26s %12s%s%n",
                "output",
                "records",
                withExpected ? String.format(Locale.ROOT, " %12s %11s", "expected", "difference") : "");
        for (String b : BRANCHES) {
            row(out, topics.getOrDefault(b, b), output(b), expected.get(b));
        }
        row(out, "dropped (test)", dropped - skipped, withExpected ? expected.get("dropped") : null);
        if (skipped > 0) {
            row(out, "skipped (errors)", skipped, null);
        }
        out.printf(Locale.ROOT, "  %-26s %12s%n", "", "------------");
        String verdict;
        if (lost()) {
            verdict = "ORDERS MISSING";
        } else if (surplus() > 0) {
            verdict = String.format(Locale.ROOT, "%,d duplicate(s) from retries or replays", surplus());
        } else {
            verdict = "every order exactly once";
        }
        out.printf(
                Locale.ROOT, "  %-26s %,12d   (input %,d: %s)%n", "accounted for", written() + dropped, input, verdict);
        out.printf(Locale.ROOT, "  %-26s %,12.0f   (%,d ms)%n", "records/s", recordsPerSecond(), elapsedMs);
        out.println();
        out.println(line());
        out.flush();
    }

    private static void row(PrintStream out, String label, long actual, Long expected) {
        if (expected == null) {
            out.printf(Locale.ROOT, "  %-26s %,12d%n", label, actual);
        } else {
            long diff = actual - expected;
            String note = diff > 0 ? " duplicate(s)" : diff < 0 ? " MISSING" : "";
            out.printf(Locale.ROOT, "  %-26s %,12d %,12d %+,11d%s%n", label, actual, expected, diff, note);
        }
    }
}
