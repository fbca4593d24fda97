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
import io.etl.core.error.DeadLetter;
import io.etl.core.error.ErrorPolicy;
import io.etl.core.error.EtlException;
import io.etl.core.error.FatalException;
import io.etl.core.error.RecordException;
import io.etl.core.error.RetryableException;
import io.etl.core.internal.chain.ChainCompiler;
import io.etl.core.internal.chain.DeadLetters;
import io.etl.core.internal.chain.Node;
import io.etl.core.internal.chain.PipelineStop;
import io.etl.core.internal.chain.RecordContext;
import io.etl.core.internal.chain.RecordErrors;
import io.etl.core.internal.checkpoint.CheckpointCommit;
import io.etl.core.internal.checkpoint.Checkpointer;
import io.etl.core.internal.checkpoint.PartitionTracker;
import io.etl.core.internal.checkpoint.PendingRecord;
import io.etl.core.internal.config.DeadLetterSinks;
import io.etl.core.internal.dsl.PipelineDefinition;
import io.etl.core.internal.pool.PoolEvents;
import io.etl.core.internal.pool.SinkPool;
import io.etl.core.internal.trace.RecordTracing;
import io.etl.core.metrics.EtlMetrics;
import io.etl.core.record.RecordMeta;
import io.etl.core.sink.SealedBatch;
import io.etl.core.sink.Sink;
import io.etl.core.source.PartitionListener;
import io.etl.core.source.Source;
import io.etl.core.source.SourceContext;
import io.etl.core.source.SourcePartition;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
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
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Runs one pipeline on one thread: polls the source, pushes each record through the chain into the sink
 * pools, commits watermarks, pauses the source while the pools are full, and drains on the way out.
 */
public final class PipelineRunner implements RunningPipeline, PartitionListener, PoolEvents {

    private static final Logger LOG = LoggerFactory.getLogger(PipelineRunner.class);
    private static final long BLOCKED_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    /** How often stalls are checked and the checkpoint gauges refreshed. */
    private static final long HOUSEKEEPING_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /** The tracking bounds are checked every 256 records (and before the first of a poll). */
    private static final int PENDING_CHECK_MASK = 255;

    private final String name;
    private final PipelineStateMachine state;
    private final String runId = UUID.randomUUID().toString();
    private final Source<Object> source;
    private final CheckpointConfig checkpoint;
    private final MeterRegistry registry;
    private final List<SinkPool<Object, ?>> pools = new ArrayList<>();
    private final Node head;
    private final RecordContext ctx;
    private final RecordErrors errors;
    private final DeadLetters deadLetters;
    private final SinkPool<?, ?> deadLetterPool;
    private final ErrorPolicy decodePolicy;
    private final Checkpointer checkpointer = new Checkpointer();
    private final Map<SourcePartition, Long> committedView = new ConcurrentHashMap<>();
    private final Map<SourcePartition, AtomicLong> committedGauges = new ConcurrentHashMap<>();
    private final CompletableFuture<PipelineResult> result = new CompletableFuture<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final AtomicLong abandonedBatches = new AtomicLong();
    private final Counter recordsIn;
    private final Tags tags;
    private final AtomicLong pausedGauge = new AtomicLong();
    private final AtomicLong pendingGauge = new AtomicLong();
    private final Duration shutdownTimeout;
    private final RunContext run;
    /** Exactly-once mode only: the open transaction; null at least once. */
    private TransactionRun transactions;
    private final Set<SourcePartition> assignedView = ConcurrentHashMap.newKeySet();
    private volatile long lastCommitMillis;
    private volatile long lastActivityMillis = System.currentTimeMillis();
    private volatile long stopRequestedNanos;
    private final AtomicLong replayGauge = new AtomicLong();

    private final PollBuffer buffer = new PollBuffer();

    private volatile boolean stopRequested;
    private volatile Thread thread;
    private boolean paused;
    /** An asynchronous commit was sent and its callback has not come yet: at most one at a time. */
    private boolean commitInFlight;
    private long lastCommitNanos;
    private long recordCount;
    private long startNanos;
    // a one-entry cache of the last record's tracker: records arrive in runs of one partition
    private String lastTopic;
    private int lastPartition = -1;
    private PartitionTracker lastTracker;

    @SuppressWarnings("unchecked")
    private PipelineRunner(PipelineDefinition definition, PipelineConfig config, MeterRegistry registry) {
        this.name = config.pipeline().name() != null ? config.pipeline().name() : definition.name();
        this.state = new PipelineStateMachine(name);
        this.source = (Source<Object>) definition.source();
        this.checkpoint = config.checkpoint();
        this.shutdownTimeout = config.pipeline().shutdownTimeout();
        this.run = RunContext.of(runId, config.pipeline().delivery(),
                config.pipeline().transactionalId(), config.pipeline().transactionTimeout());
        this.registry = registry;
        Tags common = Tags.of(EtlMetrics.TAG_PIPELINE, name);
        for (Map.Entry<String, String> t : config.metrics().commonTags().entrySet()) {
            common = common.and(t.getKey(), t.getValue());
        }
        this.tags = common;
        this.decodePolicy = source.errorPolicy();
        Map<Sink<Object, ?>, SinkPool<Object, ?>> bySink = new IdentityHashMap<>();
        for (Sink<Object, ?> sink : definition.sinks()) {
            SinkPool<Object, ?> pool = new SinkPool<>(sink, this, registry, tags);
            bySink.put(sink, pool);
            pools.add(pool);
        }
        if (definition.deadLetter() != null) {
            this.deadLetterPool = null;
            this.deadLetters = DeadLetters.toHandler(name, definition.deadLetter(), this::fail, this::wake);
        } else if (config.deadLetter().isPresent() && definition.usesDeadLetter(config)) {
            SinkPool<DeadLetter, ?> pool = new SinkPool<>(DeadLetterSinks.create(config.deadLetter().get()),
                    DeadLetterEvents.failFast(this, this::fail), registry, tags);
            this.deadLetterPool = pool;
            this.deadLetters = DeadLetters.toPool(name, pool, this::fail, this::wake);
            addLast(pool);
        } else {
            if (config.deadLetter().isPresent()) {
                LOG.warn("pipeline '{}': the dead_letter section is not used (no stage has policy dead_letter)", name);
            }
            this.deadLetterPool = null;
            this.deadLetters = null;
        }
        this.errors = new RecordErrors(registry, tags, deadLetters, this::fail);
        this.ctx = new RecordContext(errors, config.pipeline(),
                RecordTracing.create(config.pipeline().tracing(), name, source.name()));
        this.head = ChainCompiler.compile(definition.operators(), definition.terminal(), bySink,
                config.pipeline().onError(), ctx, registry, tags);
        Tags sourceTags = tags.and(EtlMetrics.TAG_SOURCE, source.name());
        this.recordsIn = registry.counter(EtlMetrics.SOURCE_RECORDS, sourceTags);
        Gauge.builder(EtlMetrics.SOURCE_PAUSED, pausedGauge, AtomicLong::get).tags(sourceTags).register(registry);
        Gauge.builder(EtlMetrics.CHECKPOINT_PENDING_RECORDS, pendingGauge, AtomicLong::get).tags(tags).register(registry);
        Gauge.builder(EtlMetrics.CHECKPOINT_REPLAY_WINDOW, replayGauge, AtomicLong::get).tags(tags).register(registry);
    }

    @SuppressWarnings("unchecked")
    private void addLast(SinkPool<?, ?> pool) {
        // the dead-letter pool is last: it is drained after every pool that may still hand it dead letters
        pools.add((SinkPool<Object, ?>) pool);
    }

    /** Starts {@code definition} on a new thread. */
    public static RunningPipeline start(PipelineDefinition definition, PipelineConfig config, MeterRegistry registry) {
        PipelineRunner runner = new PipelineRunner(definition, config, registry);
        Thread t = new Thread(runner::runLoop, "etl-" + runner.name);
        runner.thread = t;
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
        return Set.copyOf(assignedView);
    }

    @Override
    public Optional<Instant> lastCommitTime() {
        long at = lastCommitMillis;
        return at == 0 ? Optional.empty() : Optional.of(Instant.ofEpochMilli(at));
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
        wake();
    }

    @Override
    public Map<SourcePartition, Long> committedOffsets() {
        return Map.copyOf(committedView);
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
            throw new IllegalStateException("pipeline '" + name + "' did not stop within " + Durations.format(timeout), e);
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

    private void fail(Throwable cause) {
        if (failure.compareAndSet(null, cause)) {
            LOG.error("pipeline '{}' failed: {}", name, cause.getMessage());
        }
        wake();
    }

    private void wake() {
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    // ---- the loop ----------------------------------------------------------------------------------------

    private void runLoop() {
        startNanos = System.nanoTime();
        MDC.put("pipeline", name);
        boolean opened = false;
        try {
            SinkOpening.openAll(pools, name, run, registry);
            source.open(new SourceContext(name, this, registry, tags.and(EtlMetrics.TAG_SOURCE, source.name()), runId,
                    run));
            opened = true;
            if (run.exactlyOnce()) {
                transactions = new TransactionRun(run.find(TransactionalCheckpoint.class)
                        .orElseThrow(() -> ConfigException.of("pipeline.delivery", "is exactly_once"
                                + " but no sink of this pipeline writes in transactions (sinks "
                                + pools.stream().map(SinkPool::name).toList() + ")")), registry, tags);
            }
            LOG.info("pipeline '{}' started: source '{}', sinks {}", name, source.name(),
                    pools.stream().map(SinkPool::name).toList());
            // checkpoint.interval is the floor between two commits: one is sent as soon as a watermark moved,
            // the previous one completed, and the floor has passed since it was sent
            long floor = checkpoint.interval().toNanos();
            long nextHousekeeping = System.nanoTime() + HOUSEKEEPING_NANOS;
            lastCommitNanos = System.nanoTime() - floor;
            long maxPoll = source.pollTimeout().toNanos();
            while (!stopRequested && failure.get() == null) {
                lastActivityMillis = System.currentTimeMillis();
                if (transactions != null && transactions.failure() != null) {
                    abortAndRewind(transactions.failure());
                }
                pumpDeadLetters();
                boolean blocked = !processBuffer();
                setPaused(blocked);
                long now = System.nanoTime();
                long wait;
                if (blocked) {
                    wait = BLOCKED_POLL_NANOS;
                } else {
                    buffer.clear();
                    wait = Math.min(maxPoll, nextHousekeeping - now);
                    if (commitInFlight || !checkpointer.allIdle()) {
                        // a watermark may move while we wait: come back for it after the floor
                        wait = Math.min(wait, Math.max(floor, BLOCKED_POLL_NANOS));
                    }
                    for (SinkPool<Object, ?> pool : pools) {
                        wait = Math.min(wait, pool.nextDeadline() - now);
                    }
                }
                int before = buffer.size();
                source.poll(Duration.ofNanos(Math.max(0, wait)), buffer);
                int polled = buffer.size() - before;
                if (polled > 0) {
                    recordsIn.increment(polled);
                    recordCount += polled;
                }
                now = System.nanoTime();
                for (SinkPool<Object, ?> pool : pools) {
                    pool.tick(now);
                }
                if (transactions != null) {
                    // exactly once: one transaction per checkpoint.interval, offsets inside it
                    if (now - lastCommitNanos >= floor) {
                        commitTransaction(System.nanoTime() + checkpoint.drainTimeout().toNanos());
                        lastCommitNanos = System.nanoTime();
                    }
                } else if (!commitInFlight && now - lastCommitNanos >= floor) {
                    commitAsync(now);
                }
                if (now - nextHousekeeping >= 0) {
                    refreshCheckpointGauges();
                    checkStalls(now);
                    nextHousekeeping = now + HOUSEKEEPING_NANOS;
                }
            }
        } catch (PipelineStop stop) {
            fail(stop.getCause());
        } catch (Throwable t) {
            fail(t);
        } finally {
            shutdown(opened);
        }
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
            if ((buffer.position() & PENDING_CHECK_MASK) == 0 && trackingFull()) {
                return false;
            }
            int i = buffer.next();
            process(buffer.value(i), buffer.meta(i));
        }
        return true;
    }

    private void process(Object value, RecordMeta meta) {
        PartitionTracker tracker = trackerFor(meta);
        PendingRecord owner = new PendingRecord(meta.offset());
        if (transactions != null) {
            transactions.entering(meta);
        }
        ctx.begin(meta, owner, System.nanoTime());
        if (value instanceof PollBuffer.DecodeFailure failed) {
            RecordException error = RecordException.at(meta, source.name(), RecordException.DECODE,
                    failed.cause().getMessage() == null ? failed.cause().getClass().getName() : failed.cause().getMessage(),
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

    private PartitionTracker trackerFor(RecordMeta meta) {
        if (meta.partition() == lastPartition && meta.topic().equals(lastTopic) && lastTracker != null) {
            return lastTracker;
        }
        lastTopic = meta.topic();
        lastPartition = meta.partition();
        lastTracker = checkpointer.tracker(new SourcePartition(meta.topic(), meta.partition()));
        return lastTracker;
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

    /** Sends the watermarks that moved, if any; they count as committed only once the source confirms. */
    private void commitAsync(long now) {
        CheckpointCommit next = checkpointer.nextCommit();
        if (next.isEmpty()) {
            return;
        }
        commitInFlight = true;
        lastCommitNanos = now;
        source.commit(next.offsets(), false, (stored, error) -> {
            commitInFlight = false;
            if (error == null) {
                publishCommitted(checkpointer.confirmed(next, stored));
            } else {
                LOG.debug("pipeline '{}': commit of {} failed ({}); sent again with the next one", name, stored,
                        error.getMessage());
            }
        });
    }

    /** The final, synchronous commit; a failure is returned, never only logged. */
    private Throwable commitSync() {
        CheckpointCommit last = checkpointer.nextCommit();
        refreshCheckpointGauges();
        if (last.isEmpty()) {
            return null;
        }
        Throwable[] failed = {null};
        source.commit(last.offsets(), true, (stored, error) -> {
            if (error == null) {
                publishCommitted(checkpointer.confirmed(last, stored));
            } else {
                failed[0] = error;
            }
        });
        refreshCheckpointGauges();
        if (failed[0] == null) {
            return null;
        }
        return new FatalException("pipeline '" + name + "': the final commit of " + last.offsets() + " failed: "
                + failed[0].getMessage() + "; records after the last committed offsets replay after a restart",
                failed[0]);
    }

    private void refreshCheckpointGauges() {
        pendingGauge.set(checkpointer.pendingRecords());
        replayGauge.set(checkpointer.replayWindow());
    }

    private void publishCommitted(Map<SourcePartition, Long> offsets) {
        lastCommitMillis = System.currentTimeMillis();
        committedView.putAll(offsets);
        updateCommittedGauges(offsets);
    }

    private void updateCommittedGauges(Map<SourcePartition, Long> offsets) {
        for (Map.Entry<SourcePartition, Long> e : offsets.entrySet()) {
            committedGauges.computeIfAbsent(e.getKey(), p -> {
                AtomicLong holder = new AtomicLong();
                Gauge.builder(EtlMetrics.CHECKPOINT_COMMITTED_OFFSET, holder, AtomicLong::get)
                        .tags(tags.and(EtlMetrics.TAG_TOPIC, p.topic(), EtlMetrics.TAG_PARTITION, Integer.toString(p.partition())))
                        .register(registry);
                return holder;
            }).set(e.getValue());
        }
    }

    private void checkStalls(long now) {
        long limit = checkpoint.stalledFailAfter().toNanos();
        for (PartitionTracker t : checkpointer.trackers()) {
            t.watermark();
            PendingRecord oldest = t.oldestPending();
            if (oldest != null && oldest.failure() != null && now - oldest.failedAtNanos() >= limit) {
                fail(new FatalException("partition " + t.partition() + " stalled at offset " + oldest.offset()
                        + " for " + Durations.format(checkpoint.stalledFailAfter()) + " behind a batch that failed: "
                        + oldest.failure().getMessage(), oldest.failure()));
                return;
            }
        }
    }

    // ---- exactly once ------------------------------------------------------------------------------------

    /**
     * Commits the open transaction once every output of every record that entered it is acknowledged, with
     * the positions after those records; a transaction that cannot get there by {@code deadline}, or that a
     * writer's error doomed, is aborted and the source reads again from the last commit.
     */
    private void commitTransaction(long deadline) {
        if (!transactions.isOpen()) {
            return;
        }
        long started = System.nanoTime();
        if (!awaitAllAcknowledged(deadline)) {
            abortAndRewind(transactions.failure() != null ? transactions.failure()
                    : new RetryableException("outputs still unacknowledged after "
                    + checkpoint.drainTimeout() + " at the checkpoint"));
            return;
        }
        CheckpointCommit next = checkpointer.nextCommit();
        Map<SourcePartition, Long> positions = next.offsets();
        try {
            transactions.commit(positions, started);
        } catch (RetryableException e) {
            transactions.abortedByCommit();
            LOG.warn("pipeline '{}': transaction aborted at commit ({}); reading again from the last commit", name,
                    e.getMessage());
            rewind();
            return;
        }
        publishCommitted(checkpointer.confirmed(next, positions));
        refreshCheckpointGauges();
    }

    /** Seals every open batch and waits until every record that entered is done (or a writer's error). */
    private boolean awaitAllAcknowledged(long deadline) {
        for (SinkPool<Object, ?> pool : pools) {
            pool.flushAll(deadline);
        }
        while (!checkpointer.allIdle() && System.nanoTime() < deadline && failure.get() == null
                && transactions.failure() == null) {
            if (deadLetters != null && deadLetters.hasHandedOver()) {
                pumpDeadLetters();
                if (deadLetterPool != null) {
                    deadLetterPool.flushAll(deadline);
                }
            }
            LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(1));
        }
        return checkpointer.allIdle() && transactions.failure() == null && failure.get() == null;
    }

    /**
     * Aborts the open transaction (after every write of it has completed, so none lands in the next one)
     * and rewinds the source to the last committed positions. A fatal {@code cause} fails the pipeline.
     */
    private void abortAndRewind(EtlException cause) {
        if (cause instanceof FatalException fatal) {
            throw fatal;
        }
        if (cause != null) {
            LOG.warn("pipeline '{}': aborting the open transaction after {}; reading again from the last commit",
                    name, cause.getMessage());
        }
        long deadline = System.nanoTime() + checkpoint.drainTimeout().toNanos();
        for (SinkPool<Object, ?> pool : pools) {
            pool.flushAll(deadline);
        }
        while (!checkpointer.allIdle() && System.nanoTime() < deadline && failure.get() == null) {
            if (deadLetters != null && deadLetters.hasHandedOver()) {
                pumpDeadLetters();
            }
            LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(1));
        }
        if (!checkpointer.allIdle()) {
            throw new FatalException("pipeline '" + name + "': writes of an aborted transaction still unfinished after "
                    + checkpoint.drainTimeout() + "; stopping rather than letting them reach the next transaction");
        }
        transactions.abort();
        rewind();
    }

    /** Forgets every record since the last commit and makes the source read them again. */
    private void rewind() {
        Map<SourcePartition, Long> points = transactions.rewindPoints(buffer.unprocessed());
        buffer.clear();
        List<SourcePartition> tracked = new ArrayList<>(checkpointer.trackers().stream()
                .map(PartitionTracker::partition).toList());
        checkpointer.released(tracked);
        checkpointer.assigned(tracked);
        lastTracker = null;
        points.keySet().retainAll(assignedView);
        source.seek(points);
        LOG.info("pipeline '{}': rewound to {}", name, points);
    }

    /** A revoke in exactly-once mode: the open transaction (over every partition) commits before they go. */
    private Map<SourcePartition, Long> revokedInTransaction(Set<SourcePartition> revoked, Duration waitUpTo) {
        if (transactions.failure() != null) {
            abortAndRewind(transactions.failure());
        } else {
            commitTransaction(System.nanoTime() + waitUpTo.toNanos());
        }
        checkpointer.released(revoked);
        transactions.released(revoked);
        lastTracker = null;
        revoked.forEach(committedView::remove);
        assignedView.removeAll(revoked);
        LOG.info("pipeline '{}': revoked {} after the open transaction ended", name, revoked);
        // the offsets went with the transaction: the source has nothing left to commit
        return Map.of();
    }

    /** The last transaction, at shutdown: committed when the drain completed, aborted otherwise. */
    private void finishTransaction(long deadline) {
        try {
            EtlException doomed = transactions.failure();
            if (doomed != null || !allFinished()) {
                LOG.error("pipeline '{}': aborting the last transaction ({}); its records replay after a restart", name,
                        doomed != null ? doomed.getMessage() : "the drain did not complete");
                if (doomed instanceof FatalException) {
                    // fenced or broken: the brokers abort it (a newer instance already did, or the timeout will)
                    failure.compareAndSet(null, doomed);
                    return;
                }
                transactions.abort();
                return;
            }
            commitTransaction(deadline);
        } catch (RuntimeException e) {
            LOG.error("pipeline '{}': the last transaction failed: {}", name, e.getMessage());
            failure.compareAndSet(null, e);
        }
    }

    // ---- shutdown ----------------------------------------------------------------------------------------

    /** Writes dead letters that sink workers handed over (records their destination refused). */
    private void pumpDeadLetters() {
        if (deadLetters != null && deadLetters.pump(System.nanoTime()) && deadLetterPool != null) {
            deadLetterPool.tick(System.nanoTime());
        }
    }

    private void shutdown(boolean opened) {
        state.transition(PipelineState.DRAINING);
        long begun = stopRequested ? stopRequestedNanos : System.nanoTime();
        long deadline = begun + checkpoint.drainTimeout().toNanos();
        // the whole stop fits in pipeline.shutdown_timeout: the drain first, then what is left for the rest
        long stopDeadline = begun + shutdownTimeout.toNanos();
        try {
            for (SinkPool<Object, ?> pool : pools) {
                pool.flushAll(deadline);
            }
            if (deadLetterPool != null) {
                // output sinks first: until they finish, they may refuse records that become dead letters
                for (SinkPool<Object, ?> pool : pools) {
                    if (pool != deadLetterPool) {
                        pool.close();
                    }
                }
                while (!outputsFinished() && System.nanoTime() < deadline) {
                    pumpDeadLetters();
                    LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(5));
                }
                pumpDeadLetters();
                deadLetterPool.flushAll(deadline);
            }
            for (SinkPool<Object, ?> pool : pools) {
                pool.close();
            }
            while (!allFinished() && System.nanoTime() < deadline) {
                if (deadLetters != null && deadLetters.hasHandedOver()) {
                    pumpDeadLetters();
                }
                LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(5));
            }
            if (!allFinished()) {
                LOG.error("pipeline '{}': drain timeout of {} reached with batches still unacknowledged",
                        name, Durations.format(checkpoint.drainTimeout()));
            }
            for (SinkPool<Object, ?> pool : pools) {
                pool.abort(remaining(stopDeadline, Duration.ofSeconds(5)));
            }
            if (opened && transactions != null) {
                finishTransaction(deadline);
            } else if (opened) {
                Throwable commitFailure;
                try {
                    commitFailure = commitSync();
                } catch (RuntimeException e) {
                    commitFailure = e;
                }
                if (commitFailure != null) {
                    LOG.error("pipeline '{}': final commit failed: {}", name, commitFailure.getMessage());
                    failure.compareAndSet(null, commitFailure);
                }
            }
        } catch (Throwable t) {
            failure.compareAndSet(null, t);
        } finally {
            try {
                if (opened) {
                    source.close(remaining(stopDeadline, Duration.ofSeconds(10)));
                }
            } catch (RuntimeException e) {
                LOG.warn("pipeline '{}': closing source '{}' failed: {}", name, source.name(), e.getMessage());
            }
            for (SinkPool<Object, ?> pool : pools) {
                try {
                    pool.closeWriter(remaining(stopDeadline, Duration.ofSeconds(5)));
                } catch (RuntimeException e) {
                    LOG.warn("pipeline '{}': closing sink '{}' failed: {}", name, pool.name(), e.getMessage());
                }
            }
            Throwable f = failure.get();
            long abandoned = abandonedBatches.get();
            PipelineResult.Status status = f != null ? PipelineResult.Status.FAILED
                    : abandoned > 0 ? PipelineResult.Status.ABANDONED : PipelineResult.Status.COMPLETED;
            Duration elapsed = Duration.ofNanos(System.nanoTime() - startNanos);
            LOG.info("pipeline '{}' stopped: {} ({} records in {} ms)", name, status, recordCount, elapsed.toMillis());
            state.transition(f != null ? PipelineState.FAILED : PipelineState.STOPPED);
            MDC.remove("pipeline");
            result.complete(new PipelineResult(name, status, f, recordCount, abandoned, elapsed));
        }
    }

    /** {@code cap}, or less when the stop budget ends sooner (never below zero). */
    private static Duration remaining(long stopDeadline, Duration cap) {
        long left = Math.max(0, stopDeadline - System.nanoTime());
        return left < cap.toNanos() ? Duration.ofNanos(left) : cap;
    }

    private boolean outputsFinished() {
        for (SinkPool<Object, ?> pool : pools) {
            if (pool != deadLetterPool && !pool.finished()) {
                return false;
            }
        }
        return true;
    }

    private boolean allFinished() {
        for (SinkPool<Object, ?> pool : pools) {
            if (!pool.finished()) {
                return false;
            }
        }
        return true;
    }

    // ---- PartitionListener (called inside source.poll, on this thread) ----------------------------------

    @Override
    public void onAssigned(Collection<SourcePartition> partitions) {
        checkpointer.assigned(partitions);
        assignedView.addAll(partitions);
        lastTracker = null;
        if (!partitions.isEmpty() && !stopRequested && failure.get() == null) {
            state.transition(paused ? PipelineState.BACKPRESSURED : PipelineState.RUNNING);
        }
        LOG.info("pipeline '{}': assigned {}", name, partitions);
    }

    @Override
    public Map<SourcePartition, Long> onRevoked(Collection<SourcePartition> partitions, Duration waitUpTo) {
        Set<SourcePartition> revoked = new HashSet<>(partitions);
        buffer.drop(revoked);
        if (transactions != null) {
            return revokedInTransaction(revoked, waitUpTo);
        }
        long deadline = System.nanoTime() + waitUpTo.toNanos();
        for (SinkPool<Object, ?> pool : pools) {
            pool.flushAll(deadline);
        }
        while (!checkpointer.idle(revoked) && System.nanoTime() < deadline && failure.get() == null
                && checkpointer.firstFailure(revoked) == null) {
            if (deadLetters != null && deadLetters.hasHandedOver()) {
                pumpDeadLetters();
                if (deadLetterPool != null) {
                    deadLetterPool.flushAll(deadline);
                }
            }
            LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(2));
        }
        failIfFatal(revoked, "revoked");
        if (!checkpointer.idle(revoked)) {
            LOG.warn("pipeline '{}': revoked partitions {} still had in-flight output after {}; committing what is durable",
                    name, revoked, Durations.format(waitUpTo));
        }
        Map<SourcePartition, Long> offsets = checkpointer.watermarks(revoked);
        checkpointer.released(revoked);
        lastTracker = null;
        // the source commits these before letting the partitions go; they are no longer ours to report
        updateCommittedGauges(offsets);
        revoked.forEach(committedView::remove);
        assignedView.removeAll(revoked);
        LOG.info("pipeline '{}': revoked {}, committing {}", name, revoked, offsets);
        return offsets;
    }

    @Override
    public void onLost(Collection<SourcePartition> partitions) {
        Set<SourcePartition> lost = new HashSet<>(partitions);
        buffer.drop(lost);
        failIfFatal(lost, "lost");
        if (transactions != null && transactions.isOpen()) {
            // the open transaction holds output of partitions this instance no longer owns: it must not commit
            transactions.released(lost);
            checkpointer.released(lost);
            abortAndRewind(null);
        }
        checkpointer.released(lost);
        lastTracker = null;
        lost.forEach(committedView::remove);
        assignedView.removeAll(lost);
        LOG.warn("pipeline '{}': lost {} without committing; their records replay elsewhere", name, lost);
    }

    /**
     * A record of {@code partitions} whose output failed fatally fails the pipeline now: its tracker is about
     * to be forgotten, and the partition's next owner would only meet the same failure.
     */
    private void failIfFatal(Set<SourcePartition> partitions, String how) {
        Map.Entry<PartitionTracker, PendingRecord> failed = checkpointer.firstFailure(partitions);
        if (failed != null) {
            Throwable cause = failed.getValue().failure();
            fail(new FatalException("partition " + failed.getKey().partition() + " was " + how + " while offset "
                    + failed.getValue().offset() + " waited behind a batch that failed: " + cause.getMessage(), cause));
        }
    }

    // ---- PoolEvents (worker threads) ---------------------------------------------------------------------

    @Override
    public void acknowledged() {
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    @Override
    public void batchFailed(SealedBatch<?> batch, Throwable cause) {
        if (batch == null) {
            fail(cause);
        }
        wake();
    }

    @Override
    public void refused(String sink, ErrorPolicy policy, RecordMeta source, PendingRecord owner, RecordException error,
                        int attempts) {
        errors.refused(sink, policy, source, owner, error, attempts);
    }

    @Override
    public void batchesAbandoned(String sink, int shard, int batches, long records) {
        abandonedBatches.addAndGet(batches);
        LOG.error("pipeline '{}': sink '{}' shard {} abandoned {} batch(es) with {} record(s); they were not committed"
                + " and replay after a restart", name, sink, shard, batches, records);
    }
}
