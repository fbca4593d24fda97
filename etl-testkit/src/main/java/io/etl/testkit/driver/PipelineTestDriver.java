package io.etl.testkit.driver;

import io.etl.core.Pipeline;
import io.etl.core.RunningPipeline;
import io.etl.core.config.BatchConfig;
import io.etl.core.config.CheckpointConfig;
import io.etl.core.config.PipelineConfig;
import io.etl.core.config.SinkPoolConfig;
import io.etl.core.config.SinkSection;
import io.etl.core.error.DeadLetter;
import io.etl.core.error.ErrorPolicy;
import io.etl.core.internal.dsl.PipelineDefinition;
import io.etl.core.source.SourcePartition;
import io.etl.testkit.driver.internal.CapturedDeadLetters;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
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
 *     TestSource<Order> in = driver.input("orders", Order.class);
 *     TestSink<Order> out = driver.output("eu", Order.class);
 *     driver.start(Pipeline.named("eu").from(in).filter(o -> o.region().equals("eu")).to(out));
 *     in.send("k", new Order(1, "eu"));
 *     in.sendText("k", "{\"id\": 2, \"region\": \"eu\"}");     // bytes, decoded as the Kafka source would
 *     driver.awaitCommitted();
 *     assertThat(out.values()).extracting(Order::id).containsExactly(1, 2);
 * }
 * }</pre>
 *
 * <p>Records a stage rejects under policy {@code dead_letter} are captured ({@link #deadLetters()}) unless the
 * configuration has a {@code dead_letter} section of its own. The driver's {@link #clock()} stamps the records piped
 * in and runs the pipeline's timers; a test moves it with {@link #advance(Duration)}.
 */
public final class PipelineTestDriver implements AutoCloseable {

    /** Pool settings for test sinks: one shard, small batches, a short linger. */
    public static final SinkPoolConfig DEFAULT_POOL = SinkPoolConfig.custom()
            .batch(BatchConfig.custom()
                    .maxRecords(100)
                    .linger(Duration.ofMillis(2))
                    .build())
            .build();
    /** How long {@link #awaitCommitted()} waits. */
    public static final Duration DEFAULT_AWAIT_TIMEOUT = Duration.ofSeconds(10);
    /** How many partitions {@link #input(String, Class)} gives a source. */
    public static final int DEFAULT_PARTITIONS = 1;

    private final PipelineConfig config;
    private final MeterRegistry registry = new SimpleMeterRegistry();
    private final List<TestSource<?>> sources = new ArrayList<>();
    private final TestClock clock = TestClock.at(Instant.now().truncatedTo(ChronoUnit.MILLIS));
    private final TestSink<DeadLetter> deadLetters = new TestSink<>(PipelineConfig.DEAD_LETTER, DEFAULT_POOL);
    private SinkSection capturing;
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

    /**
     * A driver with the given settings. Sections for sources and sinks are not used; a {@code dead_letter} section
     * is (dead letters then go to its connector instead of {@link #deadLetters()}): remove it from a configuration
     * loaded from a pipeline's YAML with {@code config.withDeadLetter(null)}.
     */
    public static PipelineTestDriver create(PipelineConfig config) {
        return new PipelineTestDriver(config);
    }

    /** A source with {@code partitions} partitions whose undecodable records fail the pipeline. */
    public <T> TestSource<T> source(String name, int partitions) {
        return source(name, partitions, ErrorPolicy.FAIL);
    }

    /** A source with the given decode-error policy. */
    public <T> TestSource<T> source(String name, int partitions, ErrorPolicy onDecodeError) {
        TestSource<T> s = new TestSource<>(name, partitions, onDecodeError, 500, null, clock);
        sources.add(s);
        return s;
    }

    /**
     * A source of {@code type} with {@value #DEFAULT_PARTITIONS} partition, reading bytes as the Kafka source reads
     * that type ({@code KafkaSource...json(type)}, {@code .string()} for {@code String}, {@code .bytes()} for
     * {@code byte[]}): values piped with {@link TestSource#send(String, Object)} keep their encoded bytes as the
     * record's payload (what a dead letter carries), and bytes piped with {@link TestSource#sendBytes} are decoded,
     * or fail to decode under the source's policy ({@link TestSource#onError}, {@code fail} by default).
     */
    public <T> TestSource<T> input(String name, Class<T> type) {
        return input(name, type, DEFAULT_PARTITIONS);
    }

    /** {@link #input(String, Class)} with {@code partitions} partitions. */
    public <T> TestSource<T> input(String name, Class<T> type, int partitions) {
        TestSource<T> s = new TestSource<>(name, partitions, ErrorPolicy.FAIL, 500, ValueFormat.of(type), clock);
        sources.add(s);
        return s;
    }

    /** A sink of {@code type} values with {@link #DEFAULT_POOL} settings, named as the pipeline's sink section. */
    public <T> TestSink<T> output(String name, Class<T> type) {
        return sink(name);
    }

    /** A sink with {@link #DEFAULT_POOL} settings. */
    public <T> TestSink<T> sink(String name) {
        return sink(name, DEFAULT_POOL);
    }

    /** A sink with the given pool settings. */
    public <T> TestSink<T> sink(String name, SinkPoolConfig pool) {
        return new TestSink<>(name, pool);
    }

    /**
     * Starts the pipeline, its timers on {@link #clock()}. When some stage sends records to the dead letters and
     * neither the configuration nor the pipeline says where, they are captured for {@link #deadLetters()}.
     */
    public RunningPipeline start(Pipeline pipeline) {
        if (!(pipeline instanceof PipelineDefinition definition)) {
            running = pipeline.start(config, registry);
            return running;
        }
        PipelineConfig run = config;
        if (definition.deadLetter() == null && config.deadLetter().isEmpty() && definition.usesDeadLetter(config)) {
            capturing = CapturedDeadLetters.register(deadLetters, DEFAULT_POOL);
            run = config.withDeadLetter(capturing);
        }
        running = definition.start(run, registry, clock::engineNanos);
        return running;
    }

    /**
     * The dead letters that became durable so far, in order: each names its stage ({@link DeadLetter#stage()}, e.g.
     * {@code operator:parse}), its reason ({@code letter.error().reason()}, e.g. {@code decode}) and carries the
     * record as it was read ({@link DeadLetter#key()}, {@link DeadLetter#value()}, the source position).
     *
     * @throws IllegalStateException when the configuration's own {@code dead_letter} section takes them
     */
    public List<DeadLetter> deadLetters() {
        if (config.deadLetter().isPresent()) {
            throw new IllegalStateException("dead letters go to the configuration's dead_letter section ("
                    + config.deadLetter().get().connector() + "), not to the driver");
        }
        return deadLetters.values();
    }

    /** The clock the driver runs on: it stamps piped records and runs the pipeline's timers. */
    public TestClock clock() {
        return clock;
    }

    /**
     * Moves {@link #clock()} forward by {@code amount}: a batch lingering, a commit waiting for
     * {@code checkpoint.interval}, a partition stalled behind a failed batch see the time pass at the pipeline's next
     * turn (within a few milliseconds).
     */
    public PipelineTestDriver advance(Duration amount) {
        clock.advance(amount);
        return this;
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

    /** {@link #awaitCommitted(Duration)} for up to {@link #DEFAULT_AWAIT_TIMEOUT}. */
    public void awaitCommitted() {
        awaitCommitted(DEFAULT_AWAIT_TIMEOUT);
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
        try {
            if (running != null && !running.result().isDone()) {
                running.stopAndWait(config.checkpoint().drainTimeout().plusSeconds(10));
            }
        } finally {
            if (capturing != null) {
                CapturedDeadLetters.release(capturing);
            }
        }
    }
}
