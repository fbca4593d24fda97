package io.etl.core.internal.runtime;

import io.etl.core.PipelineResult;
import io.etl.core.PipelineState;
import io.etl.core.PipelineStateListener;
import io.etl.core.RunningPipeline;
import io.etl.core.checkpoint.RunContext;
import io.etl.core.checkpoint.TransactionalCheckpoint;
import io.etl.core.config.CheckpointConfig;
import io.etl.core.config.Durations;
import io.etl.core.config.PipelineConfig;
import io.etl.core.error.ConfigException;
import io.etl.core.error.ConfigProblem;
import io.etl.core.error.DeadLetter;
import io.etl.core.error.ErrorPolicy;
import io.etl.core.error.FatalException;
import io.etl.core.error.RecordException;
import io.etl.core.internal.chain.ChainCompiler;
import io.etl.core.internal.chain.DeadLetters;
import io.etl.core.internal.chain.Node;
import io.etl.core.internal.chain.PipelineStop;
import io.etl.core.internal.chain.RecordContext;
import io.etl.core.internal.chain.RecordErrors;
import io.etl.core.internal.checkpoint.Checkpointer;
import io.etl.core.internal.checkpoint.PartitionTracker;
import io.etl.core.internal.checkpoint.PendingRecord;
import io.etl.core.internal.config.DeadLetterSinks;
import io.etl.core.internal.dsl.PipelineDefinition;
import io.etl.core.internal.pool.SinkPool;
import io.etl.core.internal.trace.RecordTracing;
import io.etl.core.metrics.EtlMetrics;
import io.etl.core.record.RecordMeta;
import io.etl.core.sink.Sink;
import io.etl.core.source.PartitionListener;
import io.etl.core.source.Source;
import io.etl.core.source.SourceContext;
import io.etl.core.source.SourceOutput;
import io.etl.core.source.SourcePartition;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Runs one pipeline on one thread: polls the source, pushes each record through the chain into the sink
 * pools, commits watermarks, pauses the source while the pools are full, and drains on the way out. The loop
 * is here; its parts are the {@link PollBuffer}, the {@link CommitScheduler}, the {@link RebalanceHandler},
 * the {@link TransactionSteps} (exactly once), the {@link StallCheck}, the {@link ShutdownSequence}, the
 * {@link PipelineStateMachine} and the {@link PipelineSignals}.
 */
public final class PipelineRunner implements RunningPipeline, PartitionListener {

    private static final Logger LOG = LoggerFactory.getLogger(PipelineRunner.class);
    private static final long BLOCKED_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    /** How often stalls are checked and the checkpoint gauges refreshed. */
    private static final long HOUSEKEEPING_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /**
     * Every 256 records (and before the first of a poll) the tracking bounds are checked, idle shards fed, and
     * a commit sent if one is due.
     */
    private static final int PENDING_CHECK_MASK = 255;

    private final String name;
    private final PipelineStateMachine state;
    private final PipelineSignals signals;
    private final String runId = UUID.randomUUID().toString();
    private final Source<Object> source;
    private final CheckpointConfig checkpoint;
    private final MeterRegistry registry;
    /** Every sink pool, the dead-letter pool last; {@link #sinks} works on the same list. */
    private final List<SinkPool<Object, ?>> pools = new ArrayList<>();

    private final PipelineSinks sinks;
    private final Node head;
    private final RecordContext ctx;
    private final RecordErrors errors;
    private final ErrorPolicy decodePolicy;
    private final Checkpointer checkpointer = new Checkpointer();
    private final TrackerLookup trackers = new TrackerLookup(checkpointer);
    private final PollBuffer buffer;
    private final ProcessingOutput output = new ProcessingOutput();
    private final Counter recordsUnprocessed;
    private final Set<SourcePartition> assigned = ConcurrentHashMap.newKeySet();
    private final CommitScheduler commits;
    private final RunParts parts;
    private final RebalanceHandler rebalances;
    private final StallCheck stalls;
    private final ShutdownSequence shutdown;
    private final CompletableFuture<PipelineResult> result = new CompletableFuture<>();
    private final Counter recordsIn;
    private final Tags tags;
    private final AtomicLong pausedGauge = new AtomicLong();
    private final Duration shutdownTimeout;
    private final RunContext run;
    /** The clock of the loop's timers: linger, commit floor, stall check. */
    private final EngineTime time;
    /** Exactly-once mode only, once the source is open; null at least once. */
    private TransactionSteps transactions;

    private volatile long lastActivityMillis = System.currentTimeMillis();
    private volatile long stopRequestedNanos;
    private volatile boolean stopRequested;
    private boolean paused;
    /** The source opened (pipeline thread); it is closed at the end even when a sink failed to open. */
    private boolean sourceOpened;
    /** Source and every sink open (pipeline thread). */
    private boolean opened;
    /** How a stop reaches the opening. */
    private final OpeningInterrupt openingInterrupt = new OpeningInterrupt();

    private long recordCount;
    private long startNanos;

    @SuppressWarnings("unchecked")
    private PipelineRunner(
            PipelineDefinition definition, PipelineConfig config, MeterRegistry registry, EngineTime time) {
        this.time = time;
        this.name = config.pipeline().name() != null ? config.pipeline().name() : definition.name();
        this.state = new PipelineStateMachine(name);
        this.signals = new PipelineSignals(name);
        this.source = (Source<Object>) definition.source();
        this.checkpoint = config.checkpoint();
        this.shutdownTimeout = config.pipeline().shutdownTimeout();
        this.run = RunContext.of(
                runId,
                config.pipeline().delivery(),
                config.pipeline().transactionalId(),
                config.pipeline().transactionTimeout());
        this.registry = registry;
        Tags common = Tags.of(EtlMetrics.TAG_PIPELINE, name);
        for (Map.Entry<String, String> t : config.metrics().commonTags().entrySet()) {
            common = common.and(t.getKey(), t.getValue());
        }
        this.tags = common;
        this.decodePolicy = source.errorPolicy();
        Map<Sink<Object, ?>, SinkPool<Object, ?>> bySink = new IdentityHashMap<>();
        for (Sink<Object, ?> sink : definition.sinks()) {
            SinkPool<Object, ?> pool = new SinkPool<>(sink, signals, registry, tags);
            bySink.put(sink, pool);
            pools.add(pool);
        }
        SinkPool<?, ?> deadLetterPool;
        DeadLetters deadLetters;
        if (definition.deadLetter() != null) {
            deadLetterPool = null;
            deadLetters = DeadLetters.toHandler(name, definition.deadLetter(), signals::fail, signals::wake);
        } else if (config.deadLetter().isPresent() && definition.usesDeadLetter(config)) {
            SinkPool<DeadLetter, ?> pool = new SinkPool<>(
                    DeadLetterSinks.create(config.deadLetter().get()),
                    DeadLetterEvents.failFast(signals, signals::fail),
                    registry,
                    tags);
            deadLetterPool = pool;
            deadLetters = DeadLetters.toPool(name, pool, signals::fail, signals::wake);
            addLast(pool);
        } else {
            if (config.deadLetter().isPresent()) {
                LOG.warn("pipeline '{}': the dead_letter section is not used (no stage has policy dead_letter)", name);
            }
            deadLetterPool = null;
            deadLetters = null;
        }
        this.sinks = new PipelineSinks(name, pools, deadLetterPool, deadLetters);
        this.errors = new RecordErrors(registry, tags, deadLetters, signals::fail);
        signals.errors(errors);
        this.ctx = new RecordContext(
                errors,
                config.pipeline(),
                RecordTracing.create(config.pipeline().tracing(), name, source.name()));
        this.head = ChainCompiler.compile(
                definition.operators(),
                definition.terminal(),
                bySink,
                config.pipeline().onError(),
                ctx,
                registry,
                tags);
        Tags sourceTags = tags.and(EtlMetrics.TAG_SOURCE, source.name());
        this.recordsIn = registry.counter(EtlMetrics.SOURCE_RECORDS, sourceTags);
        this.recordsUnprocessed = registry.counter(EtlMetrics.SOURCE_RECORDS_UNPROCESSED, sourceTags);
        this.buffer = new PollBuffer(recordsUnprocessed);
        Gauge.builder(EtlMetrics.SOURCE_PAUSED, pausedGauge, AtomicLong::get)
                .tags(sourceTags)
                .register(registry);
        this.commits = new CommitScheduler(name, source, checkpointer, checkpoint.interval(), registry, tags);
        this.parts = new RunParts(name, source, buffer, checkpointer, trackers, sinks, commits, assigned, signals);
        this.rebalances = new RebalanceHandler(parts);
        this.stalls = new StallCheck(checkpointer, checkpoint.stalledFailAfter());
        this.shutdown = new ShutdownSequence(parts, checkpoint.drainTimeout(), shutdownTimeout);
    }

    @SuppressWarnings("unchecked")
    private void addLast(SinkPool<?, ?> pool) {
        // the dead-letter pool is last: it is drained after every pool that may still hand it dead letters
        pools.add((SinkPool<Object, ?>) pool);
    }

    /** Starts {@code definition} on a new thread. */
    public static RunningPipeline start(PipelineDefinition definition, PipelineConfig config, MeterRegistry registry) {
        return start(definition, config, registry, EngineTime.SYSTEM);
    }

    /** Starts {@code definition} on a new thread, its timers on {@code time}. */
    public static RunningPipeline start(
            PipelineDefinition definition, PipelineConfig config, MeterRegistry registry, EngineTime time) {
        PipelineRunner runner = new PipelineRunner(definition, config, registry, time);
        Thread t = new Thread(runner::runLoop, "etl-" + runner.name);
        runner.signals.wakes(t);
        t.start();
        return runner;
    }

    // ---- RunningPipeline ---------------------------------------------------------------------------------

    @Override
    public CompletableFuture<PipelineResult> result() {
        return result;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public PipelineState state() {
        return state.current();
    }

    @Override
    public void addStateListener(PipelineStateListener listener) {
        state.addListener(listener);
    }

    @Override
    public Set<SourcePartition> assignedPartitions() {
        return Set.copyOf(assigned);
    }

    @Override
    public Optional<Instant> lastCommitTime() {
        return commits.lastCommitTime();
    }

    @Override
    public Instant lastActivity() {
        return Instant.ofEpochMilli(lastActivityMillis);
    }

    @Override
    public void stop() {
        if (!stopRequested) {
            stopRequestedNanos = System.nanoTime();
        }
        stopRequested = true;
        state.transition(PipelineState.DRAINING);
        openingInterrupt.stop();
        signals.wake();
    }

    @Override
    public Map<SourcePartition, Long> committedOffsets() {
        return commits.committedOffsets();
    }

    @Override
    public MeterRegistry meterRegistry() {
        return registry;
    }

    @Override
    public PipelineResult stopAndWait(Duration timeout) {
        stop();
        try {
            return result.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new IllegalStateException(
                    "pipeline '" + name + "' did not stop within " + Durations.format(timeout), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while stopping pipeline '" + name + "'", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    @Override
    public void close() {
        stopAndWait(shutdownTimeout.plusSeconds(5));
    }

    // ---- the loop ----------------------------------------------------------------------------------------

    private void runLoop() {
        startNanos = System.nanoTime();
        MDC.put("pipeline", name);
        try {
            try {
                open();
            } catch (RuntimeException e) {
                if (!stopRequested) {
                    throw e;
                }
                // stopped while opening: a stop, not a failure; nothing was read, so nothing is committed
                LOG.info("pipeline '{}': stopped while starting", name);
                LOG.debug("pipeline '{}': the interrupted opening ended with {}", name, e.toString());
                return;
            }
            opened = true;
            if (!assigned.isEmpty() && !stopRequested && !signals.failed()) {
                // a source that took partitions while it opened runs only now that every sink is open
                state.transition(PipelineState.RUNNING);
            }
            if (run.exactlyOnce()) {
                transactions = new TransactionSteps(
                        parts,
                        new TransactionRun(
                                run.find(TransactionalCheckpoint.class)
                                        .orElseThrow(() -> ConfigException.of(
                                                "pipeline.delivery",
                                                "is exactly_once"
                                                        + " but no sink of this pipeline writes in transactions (sinks "
                                                        + sinks.names() + ")")),
                                registry,
                                tags),
                        checkpoint.drainTimeout());
                rebalances.exactlyOnce(transactions);
            }
            LOG.info("pipeline '{}' started: source '{}', sinks {}", name, source.name(), sinks.names());
            // checkpoint.interval is the floor between two commits: one is sent as soon as a watermark moved,
            // the previous one completed, and the floor has passed since it was sent
            long floor = commits.floorNanos();
            long nextHousekeeping = time.nanoTime() + HOUSEKEEPING_NANOS;
            commits.start(time.nanoTime());
            long maxPoll = source.pollTimeout().toNanos();
            while (!stopRequested && !signals.failed()) {
                lastActivityMillis = System.currentTimeMillis();
                if (transactions != null) {
                    transactions.abortIfDoomed();
                }
                sinks.pumpDeadLetters();
                boolean blocked = !processBuffer();
                setPaused(blocked);
                long now = time.nanoTime();
                long wait;
                if (blocked) {
                    wait = BLOCKED_POLL_NANOS;
                } else {
                    buffer.clear();
                    wait = Math.min(maxPoll, nextHousekeeping - now);
                    if (commits.inFlight() || !checkpointer.allIdle()) {
                        // a watermark may move while we wait: come back for it after the floor
                        wait = Math.min(wait, Math.max(floor, BLOCKED_POLL_NANOS));
                    }
                    wait = sinks.capWait(wait, now);
                }
                output.resume();
                source.poll(Duration.ofNanos(Math.max(0, wait)), output);
                now = time.nanoTime();
                sinks.tick(now);
                if (transactions != null) {
                    // exactly once: one transaction per checkpoint.interval, offsets inside it
                    if (commits.due(now)) {
                        transactions.commit(
                                System.nanoTime() + checkpoint.drainTimeout().toNanos());
                        commits.committedAt(time.nanoTime());
                    }
                } else {
                    commits.commitIfDue(now);
                }
                if (now - nextHousekeeping >= 0) {
                    commits.refreshGauges();
                    FatalException stalled = stalls.stalled(now);
                    if (stalled != null) {
                        signals.fail(stalled);
                    }
                    nextHousekeeping = now + HOUSEKEEPING_NANOS;
                }
            }
        } catch (PipelineStop stop) {
            signals.fail(stop.getCause());
        } catch (Throwable t) {
            signals.fail(t);
        } finally {
            finish();
        }
    }

    /**
     * Opens the sinks in the background and the source meanwhile on this thread: their connectivity checks,
     * client start-up and class loading overlap; a stop requested meanwhile interrupts both ({@link
     * OpeningInterrupt}). Waits for every sink; a sink's failure is reported first (as
     * if the sinks had opened before the source), a source's failure then. When every failure is a
     * configuration problem (a missing topic, a denied group), one {@link ConfigException} lists them all, so
     * that a start names each problem at once.
     */
    private void open() {
        SinkOpening sinkOpening = SinkOpening.start(pools, name, run, registry);
        Throwable sourceFailure = null;
        openingInterrupt.begin(sinkOpening);
        try {
            try {
                source.open(new SourceContext(
                        name, this, registry, tags.and(EtlMetrics.TAG_SOURCE, source.name()), runId, run));
                sourceOpened = true;
            } catch (RuntimeException | Error e) {
                sourceFailure = e;
            }
            try {
                sinkOpening.await();
            } catch (RuntimeException e) {
                if (sourceFailure != null) {
                    e.addSuppressed(sourceFailure);
                }
                throw configProblemsTogether(e);
            }
        } finally {
            openingInterrupt.end();
        }
        if (sourceFailure instanceof Error error) {
            throw error;
        }
        if (sourceFailure != null) {
            throw (RuntimeException) sourceFailure;
        }
    }

    /**
     * {@code failure} and the failures it suppresses as one {@link ConfigException} with every problem, in
     * order, when each of them is one; otherwise {@code failure} as it is.
     */
    static RuntimeException configProblemsTogether(RuntimeException failure) {
        Throwable[] others = failure.getSuppressed();
        if (!(failure instanceof ConfigException first) || others.length == 0) {
            return failure;
        }
        List<ConfigProblem> problems = new ArrayList<>(first.problems());
        for (Throwable other : others) {
            if (!(other instanceof ConfigException config)) {
                return failure;
            }
            problems.addAll(config.problems());
        }
        return new ConfigException(problems, failure);
    }

    /**
     * Pushes buffered records through the chain; false when a full sink pool, too many records the
     * checkpointer tracks, or too many dead letters in flight stopped it.
     */
    private boolean processBuffer() {
        int size = buffer.size();
        while (buffer.position() < size) {
            for (int p = 0; p < pools.size(); p++) {
                if (pools.get(p).blocked()) {
                    return false;
                }
            }
            if ((buffer.position() & PENDING_CHECK_MASK) == 0) {
                if (trackingFull()) {
                    return false;
                }
                // a large poll takes a while to push through: a shard whose writer is idle gets what is ready
                // now instead of after the whole poll, so writing overlaps with the rest of it, and what is
                // already durable is committed now, so a crash replays less of it
                sinks.sealIdle();
                if (transactions == null) {
                    commits.commitIfDue(time.nanoTime());
                }
            }
            int i = buffer.next();
            process(buffer.value(i), buffer.meta(i));
        }
        return true;
    }

    /**
     * What the source polls into: each record goes into the buffer and, while nothing blocks the pipeline,
     * through the chain at once, so the first records of a large poll are on their way to the sinks while the
     * source is still decoding the rest (in order: the buffer is processed from its first unprocessed
     * record). Once the pipeline is blocked, the rest of the poll only waits in the buffer.
     */
    private final class ProcessingOutput implements SourceOutput<Object> {
        private boolean blocked;

        /** Before each poll: try to process again. */
        void resume() {
            blocked = false;
        }

        @Override
        public void emit(Object value, RecordMeta meta) {
            buffer.emit(value, meta);
            processNow();
        }

        @Override
        public void decodeFailed(RecordMeta meta, Throwable cause) {
            buffer.decodeFailed(meta, cause);
            processNow();
        }

        /** Counts the record just read (before it is processed, which may take a while), then processes. */
        private void processNow() {
            recordsIn.increment();
            recordCount++;
            if (!blocked && !stopRequested && !signals.failed()) {
                blocked = !processBuffer();
            }
        }
    }

    private void process(Object value, RecordMeta meta) {
        PartitionTracker tracker = trackers.of(meta);
        PendingRecord owner = new PendingRecord(meta.offset());
        if (transactions != null) {
            transactions.entering(meta);
        }
        ctx.begin(meta, owner, time.nanoTime());
        if (value instanceof PollBuffer.DecodeFailure failed) {
            RecordException error = RecordException.at(
                    meta,
                    source.name(),
                    RecordException.DECODE,
                    failed.cause().getMessage() == null
                            ? failed.cause().getClass().getName()
                            : failed.cause().getMessage(),
                    failed.cause());
            ctx.failed(source.name(), DeadLetter.DECODE_STAGE, decodePolicy, null, error);
        } else {
            head.push(value);
        }
        ctx.end();
        // reached only when no stage stopped the pipeline: release the chain's own hold
        owner.release();
        tracker.processed(owner);
    }

    /**
     * Whether the source must wait before more records enter: behind a slow or failed record, done records
     * are tracked too, and dead letters in flight hold their records; both are bounded here.
     */
    private boolean trackingFull() {
        return checkpointer.pendingRecords() >= checkpoint.maxPendingRecords() || errors.deadLettersFull();
    }

    private void setPaused(boolean blocked) {
        if (blocked != paused) {
            if (blocked) {
                source.pause();
            } else {
                source.resume();
            }
            paused = blocked;
            pausedGauge.set(blocked ? 1 : 0);
            if (state.current() != PipelineState.STARTING) {
                state.transition(blocked ? PipelineState.BACKPRESSURED : PipelineState.RUNNING);
            }
        }
    }

    /** Drains and closes ({@link ShutdownSequence}), then ends the run with its result. */
    private void finish() {
        state.transition(PipelineState.DRAINING);
        long begun = stopRequested ? stopRequestedNanos : System.nanoTime();
        shutdown.run(begun, opened, sourceOpened, transactions);
        buffer.clear(); // what is left was never processed: uncommitted, read again by the next run
        Throwable f = signals.failure();
        long abandoned = signals.abandonedBatches();
        PipelineResult.Status status = f != null
                ? PipelineResult.Status.FAILED
                : abandoned > 0 ? PipelineResult.Status.ABANDONED : PipelineResult.Status.COMPLETED;
        Duration elapsed = Duration.ofNanos(System.nanoTime() - startNanos);
        long unprocessed = (long) recordsUnprocessed.count();
        if (unprocessed > 0) {
            LOG.info(
                    "pipeline '{}' stopped: {} ({} records read in {} ms, {} of them not processed: left uncommitted"
                            + " to be read again)",
                    name,
                    status,
                    recordCount,
                    elapsed.toMillis(),
                    unprocessed);
        } else {
            LOG.info("pipeline '{}' stopped: {} ({} records in {} ms)", name, status, recordCount, elapsed.toMillis());
        }
        state.transition(f != null ? PipelineState.FAILED : PipelineState.STOPPED);
        MDC.remove("pipeline");
        result.complete(new PipelineResult(name, status, f, recordCount, abandoned, elapsed));
    }

    // ---- PartitionListener (called inside source.poll, on this thread) ----------------------------------

    @Override
    public void onAssigned(Collection<SourcePartition> partitions) {
        rebalances.assigned(partitions);
        if (!partitions.isEmpty() && opened && !stopRequested && !signals.failed()) {
            state.transition(paused ? PipelineState.BACKPRESSURED : PipelineState.RUNNING);
        }
        LOG.info("pipeline '{}': assigned {}", name, partitions);
    }

    @Override
    public Map<SourcePartition, Long> onRevoked(Collection<SourcePartition> partitions, Duration waitUpTo) {
        return rebalances.revoked(partitions, waitUpTo);
    }

    @Override
    public void onLost(Collection<SourcePartition> partitions) {
        rebalances.lost(partitions);
    }
}
