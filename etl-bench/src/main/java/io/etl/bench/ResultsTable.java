package io.etl.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Formats race results as Markdown: one row per timed run, then one summary row per contestant (mean of
 * its runs; peak heap is the highest seen).
 *
 * <pre>{@code
 * String md = ResultsTable.markdown(results, 200_000, 20_000, "embedded 127.0.0.1:1234", flags, List.of());
 * }</pre>
 */
public final class ResultsTable {

    private ResultsTable() {
    }

    /**
     * @param results  timed runs, labelled {@code <contestant> #<run>}
     * @param records  input records per timed run
     * @param warmup   input records of the discarded warm-up run
     * @param broker   what broker was used
     * @param jvmFlags flags of every forked JVM
     * @param extra    extra flags given on the command line
     */
    public static String markdown(List<RunResult> results, int records, int warmup, String broker,
                                  List<String> jvmFlags, List<String> extra) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT,
                "### kafka_to_kafka_split race: %,d orders per run (warm-up %,d discarded), %d cores, Java %s, broker %s%n%n",
                records, warmup, Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"), broker));
        sb.append("Forked JVM flags: `").append(String.join(" ", jvmFlags));
        if (!extra.isEmpty()) {
            sb.append(' ').append(String.join(" ", extra));
        }
        sb.append("`\n\n");
        sb.append("| run | records/s | elapsed (s) | first output (s) | records/s after first output | peak heap (MiB) | load avg | outputs eu/us/apac/unrouted |\n");
        sb.append("|---|---:|---:|---:|---:|---:|---:|---|\n");
        for (RunResult r : results) {
            sb.append(String.format(Locale.ROOT, "| %s | %,.0f | %.2f | %.2f | %,.0f | %d | %.1f | %s |%n",
                    r.implementation(), r.recordsPerSecond(), r.elapsedMillis() / 1000.0,
                    r.firstOutputMillis() / 1000.0, r.steadyRecordsPerSecond(), r.peakHeapBytes() >> 20, r.maxLoadAverage(),
                    String.join("/", r.perTopic().values().stream().map(String::valueOf).toList())));
        }
        Map<String, double[]> summary = new LinkedHashMap<>();   // sum rate, sum elapsed, max heap, count, sum steady
        for (RunResult r : results) {
            String name = r.implementation().replaceFirst(" #\\d+$", "");
            double[] s = summary.computeIfAbsent(name, k -> new double[5]);
            s[0] += r.recordsPerSecond();
            s[1] += r.elapsedMillis() / 1000.0;
            s[2] = Math.max(s[2], r.peakHeapBytes() >> 20);
            s[3]++;
            s[4] += r.steadyRecordsPerSecond();
        }
        double best = summary.values().stream().mapToDouble(s -> s[0] / s[3]).max().orElse(1);
        sb.append("\n| implementation | mean records/s | vs fastest | mean elapsed (s) | mean records/s after first output | max peak heap (MiB) | runs |\n");
        sb.append("|---|---:|---:|---:|---:|---:|---:|\n");
        summary.forEach((name, s) -> sb.append(String.format(Locale.ROOT, "| %s | %,.0f | %.0f%% | %.2f | %,.0f | %.0f | %.0f |%n",
                name, s[0] / s[3], 100 * (s[0] / s[3]) / best, s[1] / s[3], s[4] / s[3], s[2], s[3])));
        return sb.toString();
    }
}
