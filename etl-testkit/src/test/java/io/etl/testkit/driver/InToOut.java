package io.etl.testkit.driver;

import io.etl.core.Pipeline;
import io.etl.core.RecordStream;
import io.etl.core.RunningPipeline;
import java.util.function.Function;

/**
 * The shape of the driver tests that check one stage: source {@code in} (one partition), the stage, sink
 * {@code out}, on a driver with the default configuration. Closing it closes the driver.
 *
 * @param <I> the values of {@code in}
 * @param <O> the values of {@code out}
 */
final class InToOut<I, O> implements AutoCloseable {

    final PipelineTestDriver driver = PipelineTestDriver.create();
    final TestSource<I> in = driver.source("in", 1);
    final TestSink<O> out = driver.sink("out");

    /** Starts pipeline {@code name}: {@code in}, then {@code steps}, then {@code out}. */
    RunningPipeline start(String name, Function<RecordStream<I>, RecordStream<O>> steps) {
        return driver.start(steps.apply(Pipeline.named(name).from(in)).to(out));
    }

    @Override
    public void close() {
        driver.close();
    }
}
