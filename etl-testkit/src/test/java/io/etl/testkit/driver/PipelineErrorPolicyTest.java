package io.etl.testkit.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etl.core.Pipeline;
import io.etl.core.PipelineResult;
import io.etl.core.RunningPipeline;
import io.etl.core.config.CheckpointConfig;
import io.etl.core.config.PipelineConfig;
import io.etl.core.config.PipelineSection;
import io.etl.core.error.ConfigException;
import io.etl.core.error.ErrorPolicy;
import io.etl.core.error.RecordException;
import io.etl.core.error.RetryableException;
import io.etl.core.metrics.EtlMetrics;
import io.etl.core.record.RecordMeta;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

class PipelineErrorPolicyTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Test
    void skipDropsAndCountsAFailingRecordAndDeliversTheRest() {
        try (InToOut<String, Integer> run = new InToOut<>()) {
            run.start("skip", in -> in.map("parse", Integer::parseInt).onError(ErrorPolicy.SKIP));
            List.of("1", "two", "3").forEach(v -> run.in.send("k", v));
            run.driver.awaitCommitted(WAIT);

            assertThat(run.out.values()).containsExactly(1, 3);
            assertThat(DriverMeters.dropped(run.driver, "parse", RecordException.OPERATOR))
                    .isEqualTo(1.0);
        }
    }

    @Test
    void failStopsThePipelineAndCommitsNothingFromThePoisonRecordOn() {
        try (InToOut<String, Integer> run = new InToOut<>()) {
            RunningPipeline running = run.start("fail", in -> in.map("parse", Integer::parseInt));
            for (int i = 0; i < 50; i++) {
                run.in.send("k", i == 37 ? "poison" : Integer.toString(i));
            }
            PipelineResult result =
                    running.result().orTimeout(10, TimeUnit.SECONDS).join();

            assertThat(result.status()).isEqualTo(PipelineResult.Status.FAILED);
            assertThat(result.failure())
                    .isInstanceOf(RecordException.class)
                    .hasMessageContaining("in-0@37")
                    .hasMessageContaining("'parse'");
            RecordException error = (RecordException) result.failure();
            assertThat(error.offset()).isEqualTo(37L);
            assertThat(error.operator()).isEqualTo("parse");
            assertThat(run.in.committed(0)).isEqualTo(37L);
            assertThat(run.out.values())
                    .containsExactlyElementsOf(IntStream.range(0, 37).boxed().toList());
        }
    }

    @Test
    void undecodableRecordsFollowTheSourcePolicy() {
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<String> in = driver.source("raw", 1, ErrorPolicy.SKIP);
            TestSink<String> out = driver.sink("out");
            driver.start(Pipeline.named("decode").from(in).to(out));
            in.send("k", "a");
            in.sendUndecodable(0, "k", "not json");
            in.send("k", "b");
            driver.awaitCommitted(WAIT);

            assertThat(out.values()).containsExactly("a", "b");
            assertThat(DriverMeters.counter(
                            driver, EtlMetrics.RECORDS_DROPPED, EtlMetrics.TAG_REASON, RecordException.DECODE))
                    .isEqualTo(1.0);
        }
    }

    @Test
    void oversizedMessagesAreSkippedByDefaultAtTheSink() {
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<String> in = driver.source("in", 1);
            TestSink<String> out =
                    driver.<String>sink("out").rejectWhen(v -> v.length() > 5, RecordException.OVERSIZED);
            driver.start(Pipeline.named("oversized").from(in).to(out));
            List.of("small", "far too large", "tiny").forEach(v -> in.send("k", v));
            driver.awaitCommitted(WAIT);

            assertThat(out.values()).containsExactly("small", "tiny");
            assertThat(DriverMeters.dropped(driver, "out", RecordException.OVERSIZED))
                    .isEqualTo(1.0);
        }
    }

    @Test
    void deadLetteredRecordIsCommittedOnlyOnceTheHandlerConfirmed() {
        CopyOnWriteArrayList<RecordMeta> letters = new CopyOnWriteArrayList<>();
        CompletableFuture<Void> stored = new CompletableFuture<>();
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<String> in = driver.source("in", 1);
            TestSink<Integer> out = driver.sink("out");
            driver.start(Pipeline.named("dlq")
                    .deadLetter((meta, value, error) -> {
                        letters.add(meta);
                        return stored;
                    })
                    .from(in)
                    .map("parse", Integer::parseInt)
                    .onError(ErrorPolicy.DEAD_LETTER)
                    .to(out));
            in.send("k", "1");
            in.send("k", "bad");
            in.send("k", "3");
            Awaitility.await().atMost(WAIT).until(() -> out.values().size() == 2);
            Awaitility.await().during(Duration.ofMillis(150)).atMost(WAIT).until(() -> in.committed(0) <= 1L);

            stored.complete(null);
            driver.awaitCommitted(WAIT);
            assertThat(letters).extracting(RecordMeta::offset).containsExactly(1L);
        }
    }

    @Test
    void deadLetterPolicyWithoutADestinationIsRejectedAtStartNamingTheStage() {
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<String> in = driver.source("in", 1);
            TestSink<Integer> out =
                    driver.sink("out", PipelineTestDriver.DEFAULT_POOL.withOnError(ErrorPolicy.DEAD_LETTER));
            Pipeline pipeline = Pipeline.named("no-dlq")
                    .from(in)
                    .map("parse", Integer::parseInt)
                    .onError(ErrorPolicy.DEAD_LETTER)
                    .to(out);
            assertThat(pipeline.build().name())
                    .as("build() needs no configuration")
                    .isEqualTo("no-dlq");
            // started without the driver, which would capture the dead letters itself
            assertThatThrownBy(() -> pipeline.start(PipelineConfig.defaults()))
                    .isInstanceOf(ConfigException.class)
                    .hasMessageContaining("operator 'parse'")
                    .hasMessageContaining("sink 'out'")
                    .hasMessageContaining("dead_letter section");
        }
    }

    @Test
    void aMessageTheDestinationRefusesIsSkippedAndTheRestOfItsBatchIsAcknowledged() {
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<Integer> in = driver.source("in", 1);
            TestSink<Integer> out = driver.sink("out");
            out.refuseWhen(v -> v == 13);
            driver.start(Pipeline.named("refused").from(in).to(out));
            for (int i = 0; i < 40; i++) {
                in.send("k" + (i % 3), i);
            }
            driver.awaitCommitted(WAIT);

            assertThat(out.values()).hasSize(39).doesNotContain(13);
            assertThat(in.committed(0)).isEqualTo(40L);
            assertThat(DriverMeters.dropped(driver, "out", RecordException.PRODUCE))
                    .isEqualTo(1.0);
            assertThat(DriverMeters.counter(driver, EtlMetrics.SINK_RECORDS)).isEqualTo(39.0);
        }
    }

    @Test
    void aRefusedMessageIsDeadLetteredAndItsRecordCommittedOnlyOnceStored() {
        CopyOnWriteArrayList<RecordException> letters = new CopyOnWriteArrayList<>();
        CompletableFuture<Void> stored = new CompletableFuture<>();
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<Integer> in = driver.source("in", 1);
            TestSink<Integer> out =
                    driver.sink("out", PipelineTestDriver.DEFAULT_POOL.withOnError(ErrorPolicy.DEAD_LETTER));
            out.refuseWhen(v -> v == 2);
            driver.start(Pipeline.named("refused-dlq")
                    .deadLetter((meta, value, error) -> {
                        letters.add(error);
                        return stored;
                    })
                    .from(in)
                    .to(out));
            for (int i = 0; i < 5; i++) {
                in.send("k", i);
            }
            Awaitility.await().atMost(WAIT).until(() -> out.values().size() == 4);
            Awaitility.await().during(Duration.ofMillis(150)).atMost(WAIT).until(() -> in.committed(0) <= 2L);

            stored.complete(null);
            driver.awaitCommitted(WAIT);
            assertThat(letters).singleElement().satisfies(e -> {
                assertThat(e.reason()).isEqualTo(RecordException.PRODUCE);
                assertThat(e.offset()).isEqualTo(2L);
                assertThat(e.operator()).isEqualTo("out");
            });
            assertThat(DriverMeters.counter(driver, EtlMetrics.RECORDS_DEAD_LETTERED, EtlMetrics.TAG_STAGE, "out"))
                    .isEqualTo(1.0);
        }
    }

    @Test
    void anOperatorThrowingRetryableIsCalledAgainAndDeadLetteredOnlyWhenItKeepsFailing() {
        CopyOnWriteArrayList<RecordException> letters = new CopyOnWriteArrayList<>();
        AtomicInteger flakyCalls = new AtomicInteger();
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<Integer> in = driver.source("in", 1);
            TestSink<Integer> out = driver.sink("out");
            driver.start(Pipeline.named("retry")
                    .deadLetter((meta, value, error) -> {
                        letters.add(error);
                        return CompletableFuture.completedFuture(null);
                    })
                    .from(in)
                    .map("lookup", (Integer v) -> {
                        if (v == 3 && flakyCalls.getAndIncrement() == 0) {
                            throw new RetryableException("lookup timed out");
                        }
                        if (v == 7) {
                            throw new RetryableException("lookup keeps timing out");
                        }
                        if (v == 8) {
                            throw new IllegalArgumentException("a bug is not retried");
                        }
                        return v;
                    })
                    .onError(ErrorPolicy.DEAD_LETTER)
                    .to(out));
            for (int i = 0; i < 10; i++) {
                in.send("k", i);
            }
            driver.awaitCommitted(WAIT);

            assertThat(out.values()).containsExactly(0, 1, 2, 3, 4, 5, 6, 9);
            assertThat(flakyCalls.get()).isEqualTo(2);
            assertThat(letters).extracting(RecordException::offset).containsExactly(7L, 8L);
            assertThat(letters.get(0).detail()).contains("after 3 attempts");
            assertThat(letters.get(1).detail()).doesNotContain("attempts");
        }
    }

    @Test
    void aLazyFlatMapIterableThatThrowsWhileIteratedGoesToTheStagePolicy() {
        try (InToOut<String, String> run = new InToOut<>()) {
            RunningPipeline running = run.start(
                    "lazy",
                    in -> in.flatMap("explode", v -> LazyExpansion.of(v, 2, LazyExpansion.throwingAt("bad", 1)))
                            .onError(ErrorPolicy.SKIP));
            List.of("a", "bad", "c").forEach(v -> run.in.send("k", v));
            run.driver.awaitCommitted(WAIT);

            assertThat(running.result()).isNotDone();
            assertThat(run.out.values()).contains("a-0", "a-1", "c-0", "c-1").doesNotContain("bad-1");
            assertThat(DriverMeters.dropped(run.driver, "explode", RecordException.OPERATOR))
                    .isEqualTo(1.0);
        }
    }

    @Test
    void aThrowingSplitPredicateLeavesNoBranchHoldingTheValueWhenSendingToAllMatching() {
        PipelineConfig skip = PipelineConfig.custom()
                .pipeline(PipelineSection.custom().onError(ErrorPolicy.SKIP).build())
                .checkpoint(CheckpointConfig.custom()
                        .interval(Duration.ofMillis(10))
                        .drainTimeout(Duration.ofSeconds(10))
                        .stalledFailAfter(Duration.ofSeconds(2))
                        .build())
                .build();
        try (PipelineTestDriver driver = PipelineTestDriver.create(skip)) {
            TestSource<String> in = driver.source("in", 1);
            TestSink<String> first = driver.sink("first");
            TestSink<String> second = driver.sink("second");
            TestSink<String> rest = driver.sink("rest");
            Routes<String> allMatchingSecondThrowsOnBad = s -> s.toAllMatching()
                    .branch("first", v -> true, first)
                    .branch(
                            "second",
                            v -> {
                                if (v.equals("bad")) {
                                    throw new IllegalArgumentException("cannot route " + v);
                                }
                                return true;
                            },
                            second)
                    .otherwise(rest);
            driver.start(Pipeline.named("split-all").from(in).split("route", allMatchingSecondThrowsOnBad));
            List.of("a", "bad", "c").forEach(v -> in.send("k", v));
            driver.awaitCommitted(WAIT);

            assertThat(first.values()).containsExactly("a", "c");
            assertThat(second.values()).containsExactly("a", "c");
            assertThat(rest.values()).isEmpty();
        }
    }
}
