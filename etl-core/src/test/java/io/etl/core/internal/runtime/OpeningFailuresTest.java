package io.etl.core.internal.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.core.Pipeline;
import io.etl.core.PipelineResult;
import io.etl.core.PipelineState;
import io.etl.core.RunningPipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.core.error.ConfigException;
import io.etl.core.error.ConfigProblem;
import io.etl.core.source.SourceContext;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class OpeningFailuresTest {

    @Test
    void everyConnectorsConfigurationProblemIsReportedByOneStart() throws Exception {
        PipelineResult result = runWith(
                missing("source.in.kafka.topics", "topic 'in' not found"),
                missing("sinks.eu.kafka.topic", "topic 'eu' does not exist"),
                missing("sinks.us.kafka.topic", "topic 'us' does not exist"));

        assertThat(result.status()).isEqualTo(PipelineResult.Status.FAILED);
        assertThat(result.failure()).isInstanceOf(ConfigException.class);
        assertThat(((ConfigException) result.failure()).problems())
                .as("the sinks in their order, then the source")
                .extracting(ConfigProblem::path)
                .containsExactly("sinks.eu.kafka.topic", "sinks.us.kafka.topic", "source.in.kafka.topics");
    }

    @Test
    void aFailureThatIsNoConfigurationProblemIsReportedAsItIsWithTheOthersSuppressed() throws Exception {
        PipelineResult result = runWith(
                missing("source.in.kafka.topics", "topic 'in' not found"),
                () -> {
                    throw new IllegalStateException("the eu writer broke");
                },
                () -> null);

        assertThat(result.status()).isEqualTo(PipelineResult.Status.FAILED);
        assertThat(result.failure()).isInstanceOf(IllegalStateException.class).hasMessage("the eu writer broke");
        assertThat(result.failure().getSuppressed())
                .singleElement()
                .satisfies(
                        s -> assertThat(s).isInstanceOf(ConfigException.class).hasMessageContaining("'in'"));
    }

    @Test
    void aStartThatNeverOpenedGoesFromStartingToFailedWithoutDraining() throws Exception {
        CountDownLatch watched = new CountDownLatch(1);
        FixtureSource source = new FixtureSource(List.of()) {
            @Override
            public void open(SourceContext ctx) {
                try {
                    watched.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                throw ConfigException.of("source.in.kafka.brokers", "could not reach brokers");
            }
        };
        RunningPipeline running = Pipeline.named("never-opened")
                .from(source)
                .to(sink("out", () -> null))
                .start(PipelineConfig.defaults());
        List<String> moves = new CopyOnWriteArrayList<>();
        running.addStateListener((from, to) -> moves.add(from + "->" + to));
        watched.countDown();

        PipelineResult result = running.result().get(30, TimeUnit.SECONDS);

        assertThat(result.status()).isEqualTo(PipelineResult.Status.FAILED);
        assertThat(running.state()).isEqualTo(PipelineState.FAILED);
        assertThat(moves).containsExactly("STARTING->FAILED");
    }

    @Test
    void aSingleConfigurationProblemStaysTheExceptionThatWasThrown() {
        ConfigException alone = ConfigException.of("sinks.eu.kafka.topic", "topic 'eu' does not exist");

        assertThat(PipelineOpening.configProblemsTogether(alone)).isSameAs(alone);
    }

    /** An opening that fails as a start-up check does for a missing topic. */
    private static Supplier<Void> missing(String path, String message) {
        return () -> {
            throw ConfigException.of(path, message);
        };
    }

    /**
     * Runs a pipeline of one source and the sinks {@code eu} and {@code us}, whose openings do what is given (a
     * supplier returning normally opens).
     */
    private static PipelineResult runWith(Supplier<Void> sourceOpen, Supplier<Void> euOpen, Supplier<Void> usOpen)
            throws Exception {
        FixtureSource source = new FixtureSource(List.of()) {
            @Override
            public void open(SourceContext ctx) {
                sourceOpen.get();
                super.open(ctx);
            }
        };
        return Pipeline.named("opening")
                .from(source)
                .split(
                        "by-name",
                        split -> split.branch("eu", v -> v.startsWith("e"), sink("eu", euOpen))
                                .otherwise(sink("us", usOpen)))
                .start(PipelineConfig.defaults())
                .result()
                .get(30, TimeUnit.SECONDS);
    }

    private static FixtureSink<String, String> sink(String name, Supplier<Void> open) {
        return new FixtureSink<>(name, FixtureSink.passThrough(), context -> {
            open.get();
            return batch -> CompletableFuture.completedFuture(null);
        });
    }
}
