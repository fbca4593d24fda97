package io.etl.kafka.source.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.core.PipelineResult;
import io.etl.core.RunningPipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.core.error.ConfigException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.assertj.core.api.AbstractThrowableAssert;

/** Pipelines that must fail while they start: with a {@link ConfigException}, within a bound. */
final class StartupFailures {

    private StartupFailures() {}

    /**
     * Starts the copy pipeline ({@link Pipelines#copy}) on {@code config}; see {@link #assertFailsWithin}.
     *
     * @return an assertion on the failure, to check its message
     */
    static AbstractThrowableAssert<?, ? extends Throwable> assertCopyFailsWithin(
            PipelineConfig config, Duration bound) {
        return assertFailsWithin(() -> Pipelines.copy(config).start(config, new SimpleMeterRegistry()), bound);
    }

    /**
     * Starts a pipeline and checks that its result is {@code FAILED} by a {@link ConfigException} less than
     * {@code bound} after the start.
     *
     * @return an assertion on the failure, to check its message
     */
    static AbstractThrowableAssert<?, ? extends Throwable> assertFailsWithin(
            Supplier<RunningPipeline> start, Duration bound) {
        long started = System.nanoTime();
        PipelineResult result = start.get()
                .result()
                .orTimeout(bound.toMillis(), TimeUnit.MILLISECONDS)
                .join();
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(result.status()).as("result %s", result).isEqualTo(PipelineResult.Status.FAILED);
        assertThat(took).as("time until the pipeline failed").isLessThan(bound);
        return assertThat(result.failure()).isInstanceOf(ConfigException.class);
    }
}
