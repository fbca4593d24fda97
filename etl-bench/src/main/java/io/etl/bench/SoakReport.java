package io.etl.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.ToLongFunction;

/**
 * The soak's samples as a Markdown table short enough for the docs: the run cut into {@code slices} equal stretches,
 * each with the largest memory, thread and descriptor figures, the throughput, the largest lag and the latency
 * percentiles of its samples; then how the last stretch compares with the first after the warm-up.
 */
final class SoakReport {

    private SoakReport() {}

    /** The table of {@code samples} in {@code slices} stretches. */
    static String table(List<SoakSample> samples, int slices) {
        StringBuilder sb = new StringBuilder();
        sb.append("| from (min) | heap max (MiB) | old gen max (MiB) | RSS max (MiB) | threads max | fds max"
                + " | in (orders/s) | out (records/s) | lag max | p50 median (ms) | p99 median (ms) | p99 worst (ms)"
                + " | events |\n");
        sb.append("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (List<SoakSample> slice : slices(samples, slices)) {
            if (slice.isEmpty()) {
                continue;
            }
            Set<String> events = new LinkedHashSet<>();
            slice.stream()
                    .map(SoakSample::events)
                    .filter(e -> !e.isEmpty())
                    .forEach(e -> events.addAll(Arrays.asList(e.split(" "))));
            sb.append(String.format(
                    Locale.ROOT,
                    "| %.1f | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n",
                    slice.get(0).second() / 60.0,
                    cell(max(slice, SoakSample::heapMiB)),
                    cell(max(slice, SoakSample::oldGenMiB)),
                    cell(max(slice, SoakSample::rssMiB)),
                    cell(max(slice, SoakSample::threads)),
                    cell(max(slice, SoakSample::fds)),
                    cell(median(slice, SoakSample::inRate)),
                    cell(median(slice, SoakSample::outRate)),
                    cell(max(slice, SoakSample::lag)),
                    cell(median(slice, SoakSample::p50)),
                    cell(median(slice, SoakSample::p99)),
                    cell(max(slice, SoakSample::p99)),
                    String.join(", ", events)));
        }
        return sb.toString();
    }

    /**
     * The second stretch (after the warm-up of the first) beside the last: whether memory, threads and descriptors
     * stayed where they were.
     */
    static String drift(List<SoakSample> samples, int slices) {
        List<List<SoakSample>> parts =
                slices(samples, slices).stream().filter(s -> !s.isEmpty()).toList();
        if (parts.size() < 3) {
            return "too short a run to compare stretches";
        }
        List<SoakSample> early = parts.get(1);
        List<SoakSample> late = parts.get(parts.size() - 1);
        return String.format(
                Locale.ROOT,
                "second stretch against the last: RSS max %d -> %d MiB, old generation max %d -> %d MiB, threads max"
                        + " %d -> %d, open files max %d -> %d",
                max(early, SoakSample::rssMiB),
                max(late, SoakSample::rssMiB),
                max(early, SoakSample::oldGenMiB),
                max(late, SoakSample::oldGenMiB),
                max(early, SoakSample::threads),
                max(late, SoakSample::threads),
                max(early, SoakSample::fds),
                max(late, SoakSample::fds));
    }

    /** {@code samples} in {@code count} stretches of equal time. */
    static List<List<SoakSample>> slices(List<SoakSample> samples, int count) {
        List<List<SoakSample>> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            out.add(new ArrayList<>());
        }
        if (samples.isEmpty()) {
            return out;
        }
        long end = Math.max(1, samples.get(samples.size() - 1).second());
        for (SoakSample s : samples) {
            int slice = (int) Math.min(count - 1, s.second() * count / (end + 1));
            out.get(slice).add(s);
        }
        return out;
    }

    private static long max(List<SoakSample> samples, ToLongFunction<SoakSample> f) {
        return samples.stream().mapToLong(f).filter(v -> v >= 0).max().orElse(-1);
    }

    private static long median(List<SoakSample> samples, ToLongFunction<SoakSample> f) {
        long[] values =
                samples.stream().mapToLong(f).filter(v -> v >= 0).sorted().toArray();
        return values.length == 0 ? -1 : values[(values.length - 1) / 2];
    }

    private static String cell(long value) {
        return value < 0 ? "–" : String.format(Locale.ROOT, "%,d", value);
    }
}
