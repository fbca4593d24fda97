package io.etl.testkit.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etl.core.Pipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.core.config.PipelineSection;
import io.etl.core.error.DeadLetter;
import io.etl.core.error.ErrorPolicy;
import io.etl.core.error.RecordException;
import io.etl.core.error.RetryableException;
import io.etl.core.metrics.EtlMetrics;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class PipelineKeyedSplitTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    /** The part of {@code v} before its dash, or null when it has none. */
    private static String prefix(String v) {
        int dash = v.indexOf('-');
        return dash < 0 ? null : v.substring(0, dash);
    }

    @Test
    void eachValueGoesToTheBranchItsKeyNamesAndTheKeyIsComputedOnce() {
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<String> in = driver.source("regions", 2);
            TestSink<String> eu = driver.sink("eu");
            TestSink<String> americas = driver.sink("americas");
            TestSink<String> rest = driver.sink("rest");
            AtomicInteger calls = new AtomicInteger();
            driver.start(Pipeline.named("keyed")
                    .from(in)
                    .split(
                            "by-region",
                            v -> {
                                calls.incrementAndGet();
                                return prefix(v);
                            },
                            s -> s.branch("eu", "eu", eu)
                                    .branch("americas", List.of("us", "ca"), americas)
                                    .otherwise(rest)));
            List<String> values = List.of("eu-1", "us-1", "ca-1", "mars-1", "nokey", "eu-2");
            values.forEach(v -> in.send(v, v));
            driver.awaitCommitted(WAIT);

            assertThat(eu.values()).containsExactlyInAnyOrder("eu-1", "eu-2");
            assertThat(americas.values()).containsExactlyInAnyOrder("us-1", "ca-1");
            // a key no branch names and a null key both go to otherwise
            assertThat(rest.values()).containsExactlyInAnyOrder("mars-1", "nokey");
            assertThat(calls).hasValue(values.size());
        }
    }

    @Test
    void droppedUnmatchedValuesAreCountedAsFilteredBySplit() {
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<String> in = driver.source("in", 1);
            TestSink<String> eu = driver.sink("eu");
            driver.start(Pipeline.named("keyed")
                    .from(in)
                    .split(
                            "by-region",
                            PipelineKeyedSplitTest::prefix,
                            s -> s.branch("eu", "eu", eu).dropUnmatched()));
            List.of("eu-1", "us-1", "eu-2").forEach(v -> in.send("k", v));
            driver.awaitCommitted(WAIT);

            assertThat(eu.values()).containsExactly("eu-1", "eu-2");
            assertThat(in.committed(0)).isEqualTo(3L);
            assertThat(DriverMeters.counter(driver, EtlMetrics.RECORDS_FILTERED, EtlMetrics.TAG_STAGE, "by-region"))
                    .isEqualTo(1.0);
        }
    }

    @Test
    void aKeyFunctionThatFailsFollowsThePipelinePolicyAndIsRetriedWhenRetryable() {
        PipelineConfig config = PipelineConfig.custom()
                .pipeline(PipelineSection.custom()
                        .onError(ErrorPolicy.DEAD_LETTER)
                        .build())
                .build();
        try (PipelineTestDriver driver = PipelineTestDriver.create(config)) {
            TestSource<String> in = driver.source("in", 1);
            TestSink<String> out = driver.sink("out");
            AtomicInteger flaky = new AtomicInteger();
            driver.start(Pipeline.named("keyed")
                    .from(in)
                    .split(
                            "by-prefix",
                            v -> {
                                if (v.equals("flaky-1") && flaky.incrementAndGet() == 1) {
                                    throw new RetryableException("key service busy");
                                }
                                if (v.equals("bad")) {
                                    throw new IllegalStateException("no key for " + v);
                                }
                                return prefix(v);
                            },
                            s -> s.branch("out", List.of("a", "flaky"), out).dropUnmatched()));
            List.of("a-1", "bad", "flaky-1", "a-2").forEach(v -> in.send(v, v));
            driver.awaitCommitted(WAIT);

            assertThat(out.values()).containsExactly("a-1", "flaky-1", "a-2");
            assertThat(flaky).hasValue(2);
            assertThat(driver.deadLetters()).singleElement().satisfies(letter -> {
                assertThat(letter.stage()).isEqualTo(DeadLetter.splitStage("by-prefix"));
                assertThat(letter.error().reason()).isEqualTo(RecordException.OPERATOR);
                assertThat(letter.error().getMessage()).contains("no key for bad");
            });
        }
    }

    @Test
    void aKeyNamesOneBranchAndEveryBranchNeedsAKey() {
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<String> in = driver.source("in", 1);
            TestSink<String> a = driver.sink("a");
            TestSink<String> b = driver.sink("b");

            assertThatThrownBy(() -> Pipeline.named("keyed")
                            .from(in)
                            .split(
                                    "by-prefix",
                                    PipelineKeyedSplitTest::prefix,
                                    s -> s.branch("a", "x", a)
                                            .branch("b", List.of("y", "x"), b)
                                            .dropUnmatched()))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("split 'by-prefix' branch 'b': key 'x' already names branch 'a'");
            assertThatThrownBy(() -> Pipeline.named("keyed")
                            .from(in)
                            .split(
                                    "by-prefix",
                                    PipelineKeyedSplitTest::prefix,
                                    s -> s.branch("a", List.of(), a).dropUnmatched()))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("split 'by-prefix' branch 'a' has no key");
            assertThatThrownBy(() -> Pipeline.named("keyed")
                            .from(in)
                            .split(
                                    "by-prefix",
                                    PipelineKeyedSplitTest::prefix,
                                    s -> s.branch("a", (String) null, a).dropUnmatched()))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("null cannot be a key");
        }
    }
}
