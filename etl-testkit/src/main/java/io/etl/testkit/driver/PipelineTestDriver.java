package io.etl.testkit.driver;

import io.etl.core.Pipeline;
import io.etl.core.RunningPipeline;
import io.etl.core.config.BatchConfig;
import io.etl.core.config.CheckpointConfig;
import io.etl.core.config.PipelineConfig;
import io.etl.core.config.SinkPoolConfig;
import io.etl.core.error.ErrorPolicy;
import io.etl.core.source.SourcePartition;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs a pipeline in this JVM with no broker: the real chain, sink pools and checkpointer, fed by
 * {@link TestSource}s and writing to {@link TestSink}s that can inject faults.
 *
 * <pre>{@code
 * try (PipelineTestDriver driver = PipelineTestDriver.create()) {
 *     TestSource<String> in = driver.source("in", 2);
 *     TestSink<String> out = driver.sink("out");
 *     driver.start(Pipeline.named("upper").from(in).map(String::toUpperCase).to(out));
 *     in.send("k", "hello");
 *     driver.awaitCommitted(Duration.ofSeconds(5));
 *     assertThat(out.values()).containsExactly("HELLO");
 * }
 * }</pre>
 */
public final class PipelineTestDriver implements AutoCloseable {

    /** Pool settings for test sinks: one shard, small batches, a short linger. */
    public static final SinkPoolConfig DEFAULT_POOL = SinkPoolConfig.custom()
            .batch(BatchConfig.custom()
                    .maxRecords(100)
                    .linger(Duration.ofMillis(2))
                    .build())
            .build();

    private final PipelineConfig config;
    private final MeterRegistry registry = new SimpleMeterRegistry();
    private final List<TestSource<?>> sources = new ArrayList<>();
    private RunningPipeline running;

    private PipelineTestDriver(PipelineConfig config) {
        this.config = config;
    }

    /** A driver with default settings and a short commit interval. */
    public static PipelineTestDriver create() {
        return create(PipelineConfig.custom()
                .checkpoint(CheckpointConfig.custom()
                        .interval(Duration.ofMillis(20))
                        .drainTimeout(Duration.ofSeconds(10))
                        .stalledFailAfter(Duration.ofSeconds(2))
                        .build())
                .build());
    }

    /** A driver with the given settings (sections for sources and sinks are not used). */
    public static PipelineTestDriver create(PipelineConfig config) {
        return new PipelineTestDriver(config);
    }

    /** A source with {@code partitions} partitions whose undecodable records fail the pipeline. */
    public <T> TestSource<T> source(String name, int partitions) {
        return source(name, partitions, ErrorPolicy.FAIL);
    }

    /** A source with the given decode-error policy. */
    public <T> TestSource<T> source(String name, int partitions, ErrorPolicy onDecodeError) {
        TestSource<T> s = new TestSource<>(name, partitions, onDecodeError, 500);
        sources.add(s);
        return s;
    }

    /** A sink with {@link #DEFAULT_POOL} settings. */
    public <T> TestSink<T> sink(String name) {
        return sink(name, DEFAULT_POOL);
    }

    /** A sink with the given pool settings. */
    public <T> TestSink<T> sink(String name, SinkPoolConfig pool) {
        return new TestSink<>(name, pool);
    }

    /** Starts the pipeline. */
    public RunningPipeline start(Pipeline pipeline) {
        running = pipeline.start(config, registry);
        return running;
    }

    /** The running pipeline. */
    public RunningPipeline running() {
        if (running == null) {
            throw new IllegalStateException("start(pipeline) was not called");
        }
        return running;
    }

    /** Offsets committed so far, over all sources. */
    public Map<SourcePartition, Long> committedOffsets() {
        return running().committedOffsets();
    }

    /** Where the pipeline records its meters. */
    public MeterRegistry meterRegistry() {
        return registry;
    }

    /**
     * Waits until every piped record of every source is committed.
     *
     * @throws AssertionError when that does not happen within {@code timeout}, or the pipeline stopped
     */
    public void awaitCommitted(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (allCommitted()) {
                return;
            }
            if (running().result().isDone()) {
                throw new AssertionError("pipeline stopped before catching up: "
                        + running().result().join());
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(
                        "not all records committed within " + timeout + "; committed " + committedOffsets());
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
    }

    private boolean allCommitted() {
        for (TestSource<?> s : sources) {
            for (Map.Entry<SourcePartition, Long> e : s.endOffsets().entrySet()) {
                if (e.getValue() > 0 && s.committed(e.getKey().partition()) < e.getValue()) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Stops the pipeline (draining) if it runs. */
    @Override
    public void close() {
        if (running != null && !running.result().isDone()) {
            running.stopAndWait(config.checkpoint().drainTimeout().plusSeconds(10));
        }
    }
}
