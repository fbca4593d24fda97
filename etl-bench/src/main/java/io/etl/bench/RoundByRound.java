package io.etl.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleBiFunction;

/**
 * The process race's comparison with a baseline round by round: each contestant's run set against the baseline's
 * run of the same round, which shared the machine's load of that moment with it, then the median and the range of
 * those per-round figures. On a noisy machine these pairs say more than a ratio of two medians taken from
 * different rounds.
 */
final class RoundByRound {

    private RoundByRound() {}

    /**
     * A table of every contestant against {@code baseline}: records/s from process start as a ratio, how much
     * later its first output came (seconds), and CPU per record with the broker as a ratio; empty when the
     * baseline did not run or no other contestant shares a round with it.
     */
    static String table(List<ProcessRace.Result> results, String baseline) {
        Map<String, List<ProcessRace.Result>> byLabel = ProcessRace.byLabel(results, ProcessRace.Result::label);
        List<ProcessRace.Result> base = byLabel.remove(baseline);
        if (base == null || byLabel.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder()
                .append("| round by round against ")
                .append(baseline)
                .append(" | records/s from process start, ratio | first output, later by (s)"
                        + " | CPU µs/record (process + broker), ratio | rounds |\n|---|---:|---:|---:|---:|\n");
        byLabel.forEach((label, runs) -> {
            int rounds = Math.min(runs.size(), base.size());
            if (rounds == 0) {
                return;
            }
            List<ProcessRace.Result> mine = runs.subList(0, rounds);
            List<ProcessRace.Result> theirs = base.subList(0, rounds);
            boolean brokerCpu = mine.stream().allMatch(r -> r.brokerCpuMillis() >= 0)
                    && theirs.stream().allMatch(r -> r.brokerCpuMillis() >= 0);
            sb.append(String.format(
                    Locale.ROOT,
                    "| %s | %s | %s | %s | %d |%n",
                    label,
                    spread(pairs(mine, theirs, (a, b) -> a.recordsPerSecond() / b.recordsPerSecond()), "%.2f×"),
                    spread(
                            pairs(mine, theirs, (a, b) -> (a.firstOutputMillis() - b.firstOutputMillis()) / 1000.0),
                            "%.2f"),
                    brokerCpu
                            ? spread(
                                    pairs(
                                            mine,
                                            theirs,
                                            (a, b) -> a.totalCpuMicrosPerRecord() / b.totalCpuMicrosPerRecord()),
                                    "%.2f×")
                            : "–",
                    rounds));
        });
        return sb.toString();
    }

    private static List<Double> pairs(
            List<ProcessRace.Result> mine,
            List<ProcessRace.Result> theirs,
            ToDoubleBiFunction<ProcessRace.Result, ProcessRace.Result> figure) {
        List<Double> values = new ArrayList<>(mine.size());
        for (int i = 0; i < mine.size(); i++) {
            values.add(figure.applyAsDouble(mine.get(i), theirs.get(i)));
        }
        return values;
    }

    /** The median, then the range in brackets when there is more than one value. */
    private static String spread(List<Double> values, String format) {
        String median = String.format(Locale.ROOT, format, ProcessRace.median(values));
        if (values.size() < 2) {
            return median;
        }
        double min = values.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
        double max = values.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
        return median + " (" + String.format(Locale.ROOT, format, min) + " to "
                + String.format(Locale.ROOT, format, max) + ")";
    }
}
