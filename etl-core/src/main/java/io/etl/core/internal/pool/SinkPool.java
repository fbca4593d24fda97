package io.etl.core.internal.pool;

import io.etl.core.checkpoint.RunContext;
import io.etl.core.config.BreakerConfig;
import io.etl.core.config.SinkPoolConfig;
import io.etl.core.error.FatalException;
import io.etl.core.error.RecordException;
import io.etl.core.internal.checkpoint.PendingRecord;
import io.etl.core.metrics.EtlMetrics;
import io.etl.core.record.RecordMeta;
import io.etl.core.record.TraceContext;
import io.etl.core.sink.Encoder;
import io.etl.core.sink.Sink;
import io.etl.core.sink.SinkContext;
import io.etl.core.sink.SinkWriter;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;
import java.util.function.LongSupplier;

/**
 * The running side of one {@link Sink}: its encoder, its writer and its shards. {@link #offer} runs on
 * the pipeline thread for every output; each shard is a {@link ShardBatcher} there, which fills and seals
 * batches, and a {@link ShardWindow}, which writes, retries and acknowledges them. A writer that sends without
 * blocking ({@link SinkWriter#sendsWithoutBlocking()}) is called on the pipeline thread, which also settles its
 * completed writes ({@link #settle}); any other writer gets a {@link ShardWorker} thread per shard.
 *
 * @param <T> value type accepted
 * @param <M> message type written
 */
public final class SinkPool<T, M> {

    private final Sink<T, M> sink;
    private final String name;
    private final SinkPoolConfig config;
    private final Encoder<T, M> encoder;
    /** The pipeline thread's half of each shard. */
    private final ShardBatcher<M>[] shards;
    /** The writing half of each shard. */
    private final ShardWindow<M>[] windows;
    /** The worker thread of each shard, or null while the pipeline thread drives the windows. */
    private ShardWorker<M>[] workers;

    private final long lingerNanos;
    private final LongSupplier clock;
    /** Told when a shard's sealed batches start (+1) or stop (-1) waiting for room in its queue. Pipeline thread. */
    private IntConsumer overflowChanges = change -> {};

    private final PoolEvents events;
    private final SinkMetrics metrics;
    private final Tags tags;
    private SinkWriter<M> writer;
    /**
     * Whether the pipeline thread settles this pool's writes, so that the holds its outputs take are the pipeline
     * thread's own ({@link PendingRecord#retainOnPipeline()}). Set when the writer opens, before any output.
     */
    private boolean holdsOnPipeline;

    /** A pool whose batches linger on {@link System#nanoTime()}. */
    public SinkPool(Sink<T, M> sink, PoolEvents events, MeterRegistry registry, Tags pipelineTags) {
        this(sink, events, registry, pipelineTags, System::nanoTime);
    }

    /**
     * A pool whose batches linger on {@code clock}, the run's clock: it is read when a batch opens, and {@link
     * #tick} is given the same clock's time.
     */
    @SuppressWarnings("unchecked")
    public SinkPool(Sink<T, M> sink, PoolEvents events, MeterRegistry registry, Tags pipelineTags, LongSupplier clock) {
        this.sink = sink;
        this.clock = clock;
        this.name = sink.name();
        this.config = sink.pool();
        this.encoder = sink.encoder();
        this.events = events;
        this.lingerNanos = config.batch().linger().toNanos();
        Tags tags = pipelineTags.and(EtlMetrics.TAG_SINK, name);
        this.tags = tags;
        this.metrics = new SinkMetrics(registry, tags);
        this.shards = new ShardBatcher[config.shards()];
        this.windows = new ShardWindow[config.shards()];
        for (int i = 0; i < shards.length; i++) {
            CircuitBreaker breaker = breaker(config.breaker(), name + "-" + i);
            windows[i] = new ShardWindow<>(this, i, breaker);
            shards[i] = new ShardBatcher<>(this, i, windows[i]);
            if (breaker != null) {
                Gauge.builder(
                                EtlMetrics.SINK_SHARD_HEALTHY,
                                breaker,
                                b -> b.getState() == CircuitBreaker.State.OPEN ? 0 : 1)
                        .tags(tags.and(EtlMetrics.TAG_SHARD, Integer.toString(i)))
                        .register(registry);
            } else {
                Gauge.builder(EtlMetrics.SINK_SHARD_HEALTHY, () -> 1)
                        .tags(tags.and(EtlMetrics.TAG_SHARD, Integer.toString(i)))
                        .register(registry);
            }
        }
        Gauge.builder(EtlMetrics.SINK_INFLIGHT_BATCHES, this, SinkPool::inflightBatches)
                .tags(tags)
                .register(registry);
    }

    private static CircuitBreaker breaker(BreakerConfig c, String name) {
        if (!c.enabled()) {
            return null;
        }
        return CircuitBreaker.of(
                name,
                CircuitBreakerConfig.custom()
                        .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
                        .slidingWindowSize(c.slidingWindow())
                        .minimumNumberOfCalls(Math.min(c.minimumCalls(), c.slidingWindow()))
                        .failureRateThreshold(c.failureRateThreshold())
                        .waitDurationInOpenState(c.openWait())
                        .permittedNumberOfCallsInHalfOpenState(1)
                        .build());
    }

    /**
     * Opens the writer; a writer that sends without blocking is driven by the pipeline thread, any other one gets
     * a worker thread per shard.
     */
    @SuppressWarnings("unchecked")
    public void start(String pipeline, RunContext run, MeterRegistry registry) {
        writer = sink.openWriter(new SinkContext(pipeline, name, registry, tags, run.runId(), run));
        if (writer.sendsWithoutBlocking()) {
            holdsOnPipeline = true;
            for (ShardWindow<M> w : windows) {
                w.drivenBy(true, events::writeCompleted);
            }
            return;
        }
        workers = new ShardWorker[windows.length];
        for (int i = 0; i < windows.length; i++) {
            workers[i] = new ShardWorker<>(this, windows[i]);
        }
        for (int i = 0; i < windows.length; i++) {
            workers[i].start("etl-" + pipeline + "-" + name + "-" + i);
        }
    }

    /** Whether the pipeline thread writes and settles this sink's batches itself (no worker threads). */
    public boolean drivenInline() {
        return writer != null && workers == null;
    }

    public String name() {
        return name;
    }

    SinkPoolConfig config() {
        return config;
    }

    /** Whether the holds of this pool's outputs are the pipeline thread's own; see {@link #offer}. */
    boolean holdsOnPipeline() {
        return holdsOnPipeline;
    }

    SinkWriter<M> writer() {
        return writer;
    }

    PoolEvents events() {
        return events;
    }

    SinkMetrics metrics() {
        return metrics;
    }

    public Sink<T, M> sink() {
        return sink;
    }

    /** A shard's first sealed batch found no room in its window's queue. */
    void overflowStarted() {
        overflowChanges.accept(1);
    }

    /** A shard's sealed batches that waited all went to its window's queue (or were abandoned). */
    void overflowEnded() {
        overflowChanges.accept(-1);
    }

    /**
     * Tells {@code changes} of every shard whose sealed batches start or stop waiting for room (+1, -1), so that a
     * pipeline with many pools learns whether any is {@link #blocked()} from one count. Before the run starts.
     */
    public void countOverflowsIn(IntConsumer changes) {
        this.overflowChanges = changes;
    }

    /** The run's clock, which batches linger on. */
    LongSupplier clock() {
        return clock;
    }

    /**
     * Encodes {@code value} and adds it to its shard's open batch, owned by {@code owner}. Pipeline thread.
     *
     * @throws RecordException when the encoder rejects the value; nothing was retained then
     */
    public void offer(T value, RecordMeta meta, int outputIndex, PendingRecord owner) {
        offer(value, meta, outputIndex, null, owner);
    }

    /** {@link #offer(Object, RecordMeta, int, PendingRecord)} for an output carrying {@code trace} (null for none). */
    public void offer(T value, RecordMeta meta, int outputIndex, TraceContext trace, PendingRecord owner) {
        M message = trace == null
                ? encoder.encode(value, meta, outputIndex)
                : encoder.encode(value, meta, outputIndex, trace);
        long size = encoder.sizeOf(message);
        ShardBatcher<M> shard = shards.length == 1
                ? shards[0] // no hash to compute: a key's shard is the only one
                : shards[Math.floorMod(encoder.shardHash(message, meta), shards.length)];
        if (holdsOnPipeline) {
            owner.retainOnPipeline();
        } else {
            owner.retain();
        }
        shard.append(message, size, owner, meta, outputIndex);
    }

    /**
     * Settles completed writes (when the pipeline thread drives the windows), seals batches whose linger expired
     * and moves sealed batches to the queues. Pipeline thread.
     */
    public void tick(long nowNanos) {
        settle();
        for (ShardBatcher<M> s : shards) {
            s.sealIfLingered(nowNanos, lingerNanos);
            s.flush();
        }
    }

    /**
     * Settles completed writes (when the pipeline thread drives the windows) and seals the open batches of shards
     * whose writer is idle. Pipeline thread, between two records.
     */
    public void sealIdle() {
        settle();
        for (ShardBatcher<M> s : shards) {
            s.sealIfIdle();
        }
    }

    /**
     * Settles the writes that completed and writes what the windows allow, when the pipeline thread drives them
     * (a worker does that itself otherwise). Pipeline thread.
     */
    public void settle() {
        if (workers != null || writer == null) {
            return;
        }
        long now = System.nanoTime();
        for (ShardWindow<M> w : windows) {
            pump(w, now);
        }
    }

    /** Sealed batches were queued in {@code w}: its driver writes them (now, when it is this thread). */
    void handedOver(ShardWindow<M> w) {
        if (workers != null) {
            workers[w.index()].wake();
        } else if (writer != null) {
            pump(w, System.nanoTime());
        }
    }

    /**
     * One step of a window the pipeline thread drives. A writer that throws an {@link Error} on this thread ends
     * the window as a dying worker would: the pipeline fails, nothing of the window is acknowledged.
     */
    void pump(ShardWindow<M> w, long now) {
        try {
            w.pump(now);
            if (w.drained()) {
                w.finish();
            }
        } catch (RuntimeException | Error e) {
            writerFailed(w, e);
        }
    }

    /** The writer threw on the pipeline thread where it must not: the window ends, the pipeline fails. */
    void writerFailed(ShardWindow<M> w, Throwable e) {
        w.abort();
        w.finish();
        events.batchFailed(
                null,
                new FatalException(
                        "sink '" + name + "' shard " + w.index() + ": the writer failed on the pipeline thread: " + e,
                        e));
    }

    /** Earliest time (nanoTime) at which an open batch must be sealed or a retry's backoff ends, or Long.MAX_VALUE. */
    public long nextDeadline() {
        long min = Long.MAX_VALUE;
        for (ShardBatcher<M> s : shards) {
            min = Math.min(min, s.lingerDeadline(lingerNanos));
        }
        if (workers == null) {
            for (ShardWindow<M> w : windows) {
                min = Math.min(min, w.nextDeadline());
            }
        }
        return min;
    }

    /** Whether some shard holds sealed batches its queue has no room for. */
    public boolean blocked() {
        for (ShardBatcher<M> s : shards) {
            if (s.blocked() && !s.flush()) {
                return true;
            }
        }
        return false;
    }

    /** Seals every open batch and queues it, waiting for room up to the deadline. */
    public void flushAll(long deadlineNanos) {
        for (ShardBatcher<M> s : shards) {
            s.flushAll(deadlineNanos);
        }
    }

    /** Lets the windows write what is queued, then stop. */
    public void close() {
        for (ShardWindow<M> w : windows) {
            w.close();
        }
        if (workers != null) {
            for (ShardWorker<M> worker : workers) {
                worker.wake();
            }
        } else {
            settle();
        }
    }

    /** Stops the windows now; what was not acknowledged is counted as abandoned. */
    public void abort(Duration joinTimeout) {
        for (ShardWindow<M> w : windows) {
            w.abort();
        }
        if (workers == null) {
            for (int i = 0; i < windows.length; i++) {
                windows[i].finish();
                shards[i].abandonOverflow();
            }
            return;
        }
        long deadline = System.nanoTime() + joinTimeout.toNanos();
        for (int i = 0; i < workers.length; i++) {
            workers[i].wake();
            try {
                workers[i].join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            shards[i].abandonOverflow();
        }
    }

    /** Whether every window has stopped (or never started: the writer failed to open). */
    public boolean finished() {
        if (workers != null) {
            for (ShardWorker<M> worker : workers) {
                if (!worker.finished()) {
                    return false;
                }
            }
            return true;
        }
        if (writer == null) {
            return true;
        }
        for (ShardWindow<M> w : windows) {
            if (!w.finished()) {
                return false;
            }
        }
        return true;
    }

    /** Closes the writer. */
    public void closeWriter(Duration timeout) {
        if (writer != null) {
            writer.close(timeout);
        }
    }

    private double inflightBatches() {
        int n = 0;
        for (ShardWindow<M> w : windows) {
            n += w.inflightBatches();
        }
        return n;
    }
}
