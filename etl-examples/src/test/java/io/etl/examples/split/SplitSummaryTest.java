package io.etl.examples.split;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SplitSummaryTest {

    private static final Map<String, String> TOPICS =
            Map.of("eu", "orders-eu", "us", "orders-us", "apac", "orders-apac", "unrouted", "orders-unrouted");

    private static SplitSummary summary(long eu, long dropped) {
        return new SplitSummary(
                100,
                dropped,
                0,
                Map.of("eu", eu, "us", 30L, "apac", 20L, "unrouted", 5L),
                TOPICS,
                Map.of("eu", 40L, "us", 30L, "apac", 20L, "unrouted", 5L, "dropped", 5L),
                250);
    }

    @Test
    void lastLineIsTheScriptableSummary() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        summary(40, 5).print(new PrintStream(bytes, true, StandardCharsets.UTF_8));

        String[] lines = bytes.toString(StandardCharsets.UTF_8).split("\\R");
        assertThat(lines[lines.length - 1])
                .isEqualTo(
                        "summary: input=100 dropped=5 orders-eu=40 orders-us=30 orders-apac=20 unrouted=5 elapsed_ms=250");
        assertThat(SplitSummary.parseLine(lines[lines.length - 1]))
                .containsEntry("input", 100L)
                .containsEntry("orders-eu", 40L)
                .containsEntry("elapsed_ms", 250L);
    }

    @Test
    void exactAccountingIsNeitherLossNorDuplicates() {
        SplitSummary s = summary(40, 5);

        assertThat(s.accountedExactly()).isTrue();
        assertThat(s.lost()).isFalse();
        assertThat(s.recordsPerSecond()).isEqualTo(400.0);
    }

    @Test
    void theRateCountsTheOrdersProcessedNotThoseLeftOrRepeated() {
        assertThat(summary(10, 5).recordsPerSecond())
                .as("a run stopped with 30 of 100 orders unprocessed")
                .isEqualTo(280.0);
        assertThat(summary(43, 5).recordsPerSecond()).as("3 duplicates").isEqualTo(400.0);
    }

    @Test
    void duplicatesAreReportedNotHidden() {
        SplitSummary s = summary(43, 5);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        s.print(new PrintStream(bytes, true, StandardCharsets.UTF_8));

        assertThat(s.surplus()).isEqualTo(3);
        assertThat(s.lost()).isFalse();
        assertThat(bytes.toString(StandardCharsets.UTF_8))
                .contains("3 duplicate(s)")
                .contains("orders-eu=43");
    }

    @Test
    void aMissingOrderIsLossEvenWhenDuplicatesElsewhereHideIt() {
        assertThat(summary(39, 5).lost()).isTrue();
        SplitSummary masked = new SplitSummary(
                100,
                5,
                0,
                Map.of("eu", 39L, "us", 31L, "apac", 20L, "unrouted", 5L),
                TOPICS,
                Map.of("eu", 40L, "us", 30L, "apac", 20L, "unrouted", 5L, "dropped", 5L),
                250);
        assertThat(masked.accountedExactly()).isTrue();
        assertThat(masked.lost()).isTrue();
    }
}
