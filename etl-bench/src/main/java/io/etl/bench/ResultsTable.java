package io.etl.bench;

import io.etl.bench.impl.Contestant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Formats in-JVM race results as Markdown: one row per timed run, then one summary row per contestant with
 * medians over its runs (robust to the odd run disturbed by other work on the machine), the range of
 * throughput, its ratio to the reference loop (kafka-clients), and the highest peak heap.
 *
 * <pre>{@code
 * String md = ResultsTable.markdown(results, 200_000, 20_000, "embedded 127.0.0.1:1234", JvmFlags.DEFAULTS);
 * }</pre>
 */
public final class ResultsTable {

    private ResultsTable() {}

    /**
     * @param results  timed runs, labelled {@code <contestant> #<run>}
     * @param records  input records per timed run
     * @param warmup   input records of the discarded warm-up run
     * @param broker   what broker was used
     * @param jvmFlags the flag set of every forked JVM
     * @return the Markdown text
     */
    static String markdown(List<RunResult> results, int records, int warmup, String broker, JvmFlags jvmFlags) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(
                Locale.ROOT,
                "### kafka_to_kafka_split race: %,d orders per run (warm-up %,d discarded), %d cores, Java %s, broker %s%n%n",
                records,
                warmup,
                Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.version"),
                broker));
        sb.append("JVM flags, the same for every contestant: ")
                .append(jvmFlags.describe())
                .append("\n\n");
        sb.append(
                "| run | records/s | elapsed (s) | first output (s) | records/s after first output | CPU µs/record | peak heap (MiB) | load avg | outputs eu/us/apac/unrouted |\n");
        sb.append("|---|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (RunResult r : results) {
            sb.append(String.format(
                    Locale.ROOT,
                    "| %s | %s | %d | %.1f | %s |%n",
                    r.implementation(),
                    r.timingCells(),
                    r.peakHeapBytes() >> 20,
                    r.maxLoadAverage(),
                    String.join(
                            "/",
                            r.perTopic().values().stream().map(String::valueOf).toList())));
        }
        Map<String, List<RunResult>> byImpl = new LinkedHashMap<>();
        for (RunResult r : results) {
            byImpl.computeIfAbsent(r.implementation().replaceFirst(" #\\d+$", ""), k -> new ArrayList<>())
                    .add(r);
        }
        List<RunResult> reference = byImpl.getOrDefault(Contestant.CLIENTS.label(), List.of());
        double loop = reference.isEmpty() ? Double.NaN : median(reference, RunResult::recordsPerSecond);
        sb.append("\n| implementation | median records/s | min–max records/s | vs kafka-clients | median elapsed (s)"
                + " | median records/s after first output | median CPU µs/record | max peak heap (MiB) | runs |\n");
        sb.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        byImpl.forEach((name, rs) -> sb.append(String.format(
                Locale.ROOT,
                "| %s | %,.0f | %,.0f–%,.0f | %s | %.2f | %,.0f | %.1f | %d | %d |%n",
                name,
                median(rs, RunResult::recordsPerSecond),
                rs.stream().mapToDouble(RunResult::recordsPerSecond).min().orElse(0),
                rs.stream().mapToDouble(RunResult::recordsPerSecond).max().orElse(0),
                Double.isNaN(loop)
                        ? "–"
                        : String.format(Locale.ROOT, "%.2f×", median(rs, RunResult::recordsPerSecond) / loop),
                median(rs, r -> r.elapsedMillis() / 1000.0),
                median(rs, RunResult::steadyRecordsPerSecond),
                median(rs, RunResult::cpuMicrosPerRecord),
                rs.stream().mapToLong(RunResult::peakHeapBytes).max().orElse(0) >> 20,
                rs.size())));
        return sb.toString();
    }

    static double median(List<RunResult> runs, ToDoubleFunction<RunResult> metric) {
        double[] values = runs.stream().mapToDouble(metric).sorted().toArray();
        if (values.length == 0) {
            return 0;
        }
        int mid = values.length / 2;
        return values.length % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
    }
}
