package io.etl.core.internal.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.etl.core.Pipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.core.config.PipelineSection;
import io.etl.core.config.RetryLevel;
import io.etl.core.config.RetrySection;
import io.etl.core.config.RetryTopicsConfig;
import io.etl.core.config.SinkSection;
import io.etl.core.error.ConfigException;
import io.etl.core.error.ConfigProblem;
import io.etl.core.error.ErrorPolicy;
import io.etl.core.sink.SinkWriter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** What {@code start} refuses about policy retry, before any I/O. */
class RetryPolicyChecksTest {

    private static final RetrySection RETRY = new RetrySection(
            RetryTopicsConfig.of(ErrorPolicy.SKIP, List.of(RetryLevel.after(Duration.ofSeconds(1)))),
            new SinkSection(RetrySection.NAME, "fixture", new Object(), null));

    private static FixtureSink<String, String> sink(String name, ErrorPolicy policy) {
        SinkWriter<String> writer = batch -> CompletableFuture.completedFuture(null);
        return new FixtureSink<>(name, FixtureSink.passThrough(), context -> writer) {
            @Override
            public ErrorPolicy errorPolicy() {
                return policy;
            }
        };
    }

    private static List<String> problems(Pipeline pipeline, PipelineConfig config) {
        ConfigException e = catchThrowableOfType(ConfigException.class, () -> pipeline.start(config));
        assertThat(e).as("expected a ConfigException").isNotNull();
        return e.problems().stream().map(ConfigProblem::toString).toList();
    }

    @Test
    void retryIsRefusedForTheSourceAndForSinksWhoseFailuresRepeat() {
        FixtureSource source = new FixtureSource(List.of()) {
            @Override
            public ErrorPolicy errorPolicy() {
                return ErrorPolicy.RETRY;
            }
        };
        Pipeline pipeline = Pipeline.named("p").from(source).to(sink("out", ErrorPolicy.RETRY));

        assertThat(problems(pipeline, PipelineConfig.defaults().withRetry(RETRY)))
                .containsExactly(
                        "source.list.<connector>.on_error: policy retry is for operators and split predicates: a"
                                + " record that fails here fails the same way when it is tried again (use dead_letter,"
                                + " then redrive once the cause is fixed)",
                        "sinks.out.<connector>.on_error: policy retry is for operators and split predicates: a record"
                                + " that fails here fails the same way when it is tried again (use dead_letter, then"
                                + " redrive once the cause is fixed)");
    }

    @Test
    void anOperatorWithPolicyRetryNeedsTheRetrySectionAndItsThenADeadLetterDestination() {
        Pipeline pipeline = Pipeline.named("p")
                .from(new FixtureSource(List.of()))
                .map("lookup", v -> v)
                .onError(ErrorPolicy.RETRY)
                .filter("check", v -> true)
                .to(sink("out", ErrorPolicy.SKIP));
        PipelineConfig retryByDefault = PipelineConfig.custom()
                .pipeline(PipelineSection.custom().onError(ErrorPolicy.RETRY).build())
                .build();

        assertThat(problems(pipeline, retryByDefault))
                .containsExactly(
                        "operator 'lookup' (.onError): policy retry needs a top-level retry section (retry: {topics:"
                                + " [{after: 10s}], kafka: {brokers: ...}})",
                        "operator 'check' (pipeline.on_error): policy retry needs a top-level retry section (retry:"
                                + " {topics: [{after: 10s}], kafka: {brokers: ...}})");
        RetrySection thenDeadLetter = new RetrySection(
                RetryTopicsConfig.of(ErrorPolicy.DEAD_LETTER, RETRY.levels().topics()), RETRY.writer());
        assertThat(problems(pipeline, PipelineConfig.defaults().withRetry(thenDeadLetter)))
                .singleElement()
                .satisfies(p -> assertThat(p).startsWith("retry topics (retry.then): policy dead_letter needs"));
    }

    @Test
    void aSinkMayNotTakeTheRetryWritersName() {
        Pipeline pipeline =
                Pipeline.named("p").from(new FixtureSource(List.of())).to(sink("retry", ErrorPolicy.SKIP));

        ConfigException e = catchThrowableOfType(ConfigException.class, pipeline::build);
        assertThat(e.problems())
                .extracting(ConfigProblem::message)
                .containsExactly(
                        "a sink may not be named 'retry': that name belongs to the sink that writes the retry topics");
    }
}
