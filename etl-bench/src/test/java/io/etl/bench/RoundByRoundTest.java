package io.etl.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class RoundByRoundTest {

    @Test
    void setsEachRunAgainstTheBaselinesRunOfTheSameRound() {
        List<ProcessRace.Result> interleaved = List.of(
                run("etl", 10_000, 2_000, 9_000, 1_000),
                run("kafka-clients", 8_000, 1_000, 9_000, 1_000),
                run("etl", 12_000, 1_000, 12_000, 0),
                run("kafka-clients", 12_000, 1_500, 6_000, 0));

        String table = RoundByRound.table(interleaved, "kafka-clients");

        assertThat(table)
                .startsWith("| round by round against kafka-clients | records/s from process start, ratio |")
                .contains("| etl | 0.90× (0.80× to 1.00×) | 0.25 (-0.50 to 1.00) | 1.50× (1.00× to 2.00×) | 2 |")
                .doesNotContain("| kafka-clients |");
    }

    @Test
    void countsOnlyTheRoundsBothRan() {
        List<ProcessRace.Result> results = List.of(
                run("etl", 10_000, 1_000, 9_000, 1_000),
                run("kafka-clients", 5_000, 1_000, 9_000, 1_000),
                run("etl", 1_000, 1_000, 9_000, 1_000));

        assertThat(RoundByRound.table(results, "kafka-clients")).contains("| etl | 0.50× | 0.00 | 1.00× | 1 |");
    }

    @Test
    void leavesTheCpuRatioOutWithoutTheBrokersCpu() {
        List<ProcessRace.Result> results =
                List.of(run("etl", 10_000, 1_000, 9_000, -1), run("kafka-clients", 10_000, 1_000, 9_000, -1));

        assertThat(RoundByRound.table(results, "kafka-clients")).contains("| etl | 1.00× | 0.00 | – | 1 |");
    }

    @Test
    void isEmptyWithoutTheBaselineOrAnythingToSetAgainstIt() {
        assertThat(RoundByRound.table(List.of(run("etl", 1_000, 100, 900, 0)), "kafka-clients"))
                .isEmpty();
        assertThat(RoundByRound.table(List.of(run("kafka-clients", 1_000, 100, 900, 0)), "kafka-clients"))
                .isEmpty();
    }

    /** A million records in {@code elapsedMillis}, with the given first output and CPU times. */
    private static ProcessRace.Result run(
            String label, long elapsedMillis, long firstOutputMillis, long cpuMillis, long brokerCpuMillis) {
        return new ProcessRace.Result(
                label,
                1_000_000,
                elapsedMillis,
                firstOutputMillis,
                cpuMillis,
                brokerCpuMillis,
                300,
                600,
                1.0,
                List.of());
    }
}
