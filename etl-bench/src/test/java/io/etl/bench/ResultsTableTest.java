package io.etl.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ResultsTableTest {

    private static RunResult run(String name, long elapsedMillis) {
        return new RunResult(
                name,
                100_000,
                95_000,
                elapsedMillis,
                100,
                64L << 20,
                1.5,
                900,
                Map.of("eu", 1L, "us", 2L, "apac", 3L, "unrouted", 4L));
    }

    @Test
    void summarisesEachImplementationByItsMedianRun() {
        List<RunResult> runs = List.of(
                run("etl #1", 1_000), run("etl #2", 4_000), run("etl #3", 2_000), run("kafka-clients #1", 2_000));

        String table = ResultsTable.markdown(runs, 100_000, 10_000, "embedded", JvmFlags.parse("-Xmx512m"));

        assertThat(ResultsTable.median(runs.subList(0, 3), RunResult::recordsPerSecond))
                .isEqualTo(50_000.0);
        assertThat(table)
                .contains("| etl | 50,000 | 25,000–100,000 | 1.00× | 2.00 |")
                .contains("| kafka-clients | 50,000 | 50,000–50,000 | 1.00× |")
                .contains("| etl #1 | 100,000 | 1.00 | 0.10 |")
                .contains("JVM flags, the same for every contestant: `-Xmx512m`");
    }

    @Test
    void comparesWithTheReferenceLoopOnlyWhenItRan() {
        List<RunResult> runs = List.of(run("etl #1", 1_000), run("kafka-clients #1", 4_000));

        assertThat(ResultsTable.markdown(runs, 100_000, 10_000, "embedded", JvmFlags.DEFAULTS))
                .contains("| etl | 100,000 | 100,000–100,000 | 4.00× |")
                .contains("JVM flags, the same for every contestant: none (the JVM's defaults)");
        assertThat(ResultsTable.markdown(runs.subList(0, 1), 100_000, 10_000, "embedded", JvmFlags.DEFAULTS))
                .contains("| etl | 100,000 | 100,000–100,000 | – |");
    }

    @Test
    void computesCpuPerRecord() {
        assertThat(run("x #1", 1_000).cpuMicrosPerRecord()).isEqualTo(9.0);
    }
}
