package io.etl.testkit.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.etl.core.Pipeline;
import io.etl.core.PipelineResult;
import io.etl.core.RunningPipeline;
import io.etl.core.config.CheckpointConfig;
import io.etl.core.config.PipelineConfig;
import io.etl.core.error.ConfigException;
import io.etl.core.error.DeadLetter;
import io.etl.core.error.ErrorPolicy;
import io.etl.core.error.FatalException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The dead-letter sink of a {@code dead_letter} section behaves like any sink of the pool. */
class PipelineDeadLetterSinkTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private static PipelineConfig config(String id, TestSink<DeadLetter> letters) {
        return PipelineConfig.defaults()
                .withCheckpoint(CheckpointConfig.custom()
                        .interval(Duration.ofMillis(50))
                        .drainTimeout(Duration.ofSeconds(5))
                        .stalledFailAfter(Duration.ofSeconds(30))
                        .build())
                .withDeadLetter(TestDeadLetterConnector.register(id, letters));
    }

    private static TestSink<DeadLetter> deadLetterSink() {
        return new TestSink<>(PipelineConfig.DEAD_LETTER, PipelineTestDriver.DEFAULT_POOL);
    }

    @Test
    void rejectedRecordsOfEveryStageGoToTheDeadLetterSinkAndCommitOnlyOnceDurable() {
        TestSink<DeadLetter> letters = deadLetterSink().holdAcks();
        try (PipelineTestDriver driver = PipelineTestDriver.create(config("every-stage", letters))) {
            TestSource<String> in = driver.source("in", 1, ErrorPolicy.DEAD_LETTER);
            TestSink<Integer> out =
                    driver.sink("out", PipelineTestDriver.DEFAULT_POOL.withOnError(ErrorPolicy.DEAD_LETTER));
            out.refuseWhen(v -> v == 4);
            driver.start(Pipeline.named("dlq-stages")
                    .from(in)
                    .map("parse", Integer::parseInt)
                    .onError(ErrorPolicy.DEAD_LETTER)
                    .to(out));
            in.send("k", "1");
            in.sendUndecodable(0, "k", "not a string");
            in.send("k", "three");
            in.send("k", "4");
            in.send("k", "5");
            await().atMost(WAIT).until(() -> out.values().size() == 2 && letters.heldWrites() > 0);
            await().during(Duration.ofMillis(200)).atMost(WAIT).until(() -> in.committed(0) <= 1L);

            letters.releaseAcks();
            driver.awaitCommitted(WAIT);
            assertThat(letters.values())
                    .extracting(DeadLetter::stage)
                    .containsExactlyInAnyOrder("decode", "operator:parse", "produce:out");
            assertThat(letters.values()).extracting(l -> l.source().offset()).containsExactlyInAnyOrder(1L, 2L, 3L);
            assertThat(letters.values())
                    .allSatisfy(l -> assertThat(l.pipeline()).isEqualTo("dlq-stages"));
            assertThat(in.committed(0)).isEqualTo(5L);
        }
    }

    @Test
    void aDeadLetterBatchThatFailsRetryablyIsWrittenAgain() {
        TestSink<DeadLetter> letters = deadLetterSink().failRetryably(2);
        try (PipelineTestDriver driver = PipelineTestDriver.create(config("retry", letters))) {
            TestSource<String> in = driver.source("in", 1);
            TestSink<Integer> out = driver.sink("out");
            driver.start(Pipeline.named("dlq-retry")
                    .from(in)
                    .map("parse", Integer::parseInt)
                    .onError(ErrorPolicy.DEAD_LETTER)
                    .to(out));
            in.send("k", "x");
            in.send("k", "2");
            driver.awaitCommitted(WAIT);

            assertThat(letters.writeAttempts()).isGreaterThanOrEqualTo(3);
            assertThat(letters.received())
                    .extracting(TestSink.Received::value)
                    .extracting(DeadLetter::stage)
                    .containsExactly("operator:parse");
            assertThat(in.committed(0)).isEqualTo(2L);
        }
    }

    @Test
    void aDeadLetterSinkThatFailsFatallyFailsThePipelineAtOnce() {
        TestSink<DeadLetter> letters = deadLetterSink().failFatally(1);
        try (PipelineTestDriver driver = PipelineTestDriver.create(config("fatal", letters))) {
            TestSource<String> in = driver.source("in", 1);
            TestSink<Integer> out = driver.sink("out");
            RunningPipeline running = driver.start(Pipeline.named("dlq-fatal")
                    .from(in)
                    .map("parse", Integer::parseInt)
                    .onError(ErrorPolicy.DEAD_LETTER)
                    .to(out));
            in.send("k", "1");
            in.send("k", "x");
            in.send("k", "3");

            // well before checkpoint.stalled_fail_after (30s): the dead letter would never be stored
            PipelineResult result =
                    running.result().orTimeout(5, TimeUnit.SECONDS).join();
            assertThat(result.status()).isEqualTo(PipelineResult.Status.FAILED);
            assertThat(result.failure()).isInstanceOf(FatalException.class).hasMessageContaining("dead-letter sink");
            assertThat(in.committed(0)).isLessThanOrEqualTo(1L);
        }
    }

    @Test
    void bothASectionAndAHandlerIsAConfigError() {
        try (PipelineTestDriver driver = PipelineTestDriver.create(config("both", deadLetterSink()))) {
            TestSource<String> in = driver.source("in", 1);
            Pipeline pipeline = Pipeline.named("dlq-both")
                    .deadLetter((meta, value, error) -> CompletableFuture.completedFuture(null))
                    .from(in)
                    .map("parse", Integer::parseInt)
                    .onError(ErrorPolicy.DEAD_LETTER)
                    .to(driver.sink("out"));
            assertThatThrownBy(() -> driver.start(pipeline))
                    .isInstanceOf(ConfigException.class)
                    .hasMessageContaining("keep one");
        }
    }

    @Test
    void aRefusalThatArrivesWhileThePipelineDrainsStillBecomesADurableDeadLetter() {
        TestSink<DeadLetter> letters = deadLetterSink();
        try (PipelineTestDriver driver = PipelineTestDriver.create(config("drain", letters))) {
            TestSource<Integer> in = driver.source("in", 1);
            TestSink<Integer> out =
                    driver.sink("out", PipelineTestDriver.DEFAULT_POOL.withOnError(ErrorPolicy.DEAD_LETTER));
            out.refuseWhen(v -> v == 7).slowAcks(Duration.ofMillis(300));
            RunningPipeline running =
                    driver.start(Pipeline.named("dlq-drain").from(in).to(out));
            for (int i = 0; i < 10; i++) {
                in.send("k", i);
            }
            await().atMost(WAIT).until(() -> out.writeAttempts() > 0);

            PipelineResult result = running.stopAndWait(WAIT);

            assertThat(result.status()).as("result %s", result).isEqualTo(PipelineResult.Status.COMPLETED);
            assertThat(letters.values()).extracting(DeadLetter::stage).containsExactly("produce:out");
            assertThat(out.values()).hasSize(9);
            assertThat(in.committed(0)).isEqualTo(10L);
        }
    }
}
