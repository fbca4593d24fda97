package io.etl.core.internal.runtime;

import io.etl.core.PipelineResult;
import io.etl.core.PipelineState;
import io.etl.core.PipelineStateListener;
import io.etl.core.RunningPipeline;
import io.etl.core.config.Durations;
import io.etl.core.config.PipelineConfig;
import io.etl.core.error.FatalException;
import io.etl.core.internal.chain.AsyncStages;
import io.etl.core.internal.chain.PipelineStop;
import io.etl.core.internal.dsl.PipelineDefinition;
import io.etl.core.record.RecordMeta;
import io.etl.core.source.PartitionListener;
import io.etl.core.source.Source;
import io.etl.core.source.SourceOutput;
import io.etl.core.source.SourcePartition;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Runs one pipeline on one thread: polls the source, pushes each record through the chain into the sink
 * pools, commits watermarks, pauses the source while the pools are full, and drains on the way out. The loop
 * is here; {@link PipelineRunnerFactory} builds its parts: the {@link PipelineOpening}, the {@link PollBuffer},
 * the {@link RecordEntry}, the {@link PipelineSinks}, the {@link CommitScheduler}, the {@link RebalanceHandler},
 * the {@link TransactionSteps} (exactly once), the {@link StallCheck}, the {@link ShutdownSequence} and the
 * {@link PipelineSignals}; the {@link PipelineStateMachine} holds its state.
 */
public final class PipelineRunner implements RunningPipeline, PartitionListener {

    private static final Logger LOG = LoggerFactory.getLogger(PipelineRunner.class);
    private static final long BLOCKED_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    /**
     * While blocked, the paused source is polled at most this often: each wake-up (a call returned, a write
     * completed) need not cost a poll, which only keeps the group's business going.
     */
    private static final long BLOCKED_POLL_GAP_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
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
    private final Source<Object> source;
    private final PipelineOpening opening;
    private final PollBuffer buffer;
    private final RecordEntry entry;
    private final PipelineSinks sinks;
    private final SourcePause pause;
    private final OwnedPartitions partitions;
    private final CommitScheduler commits;
    private final RebalanceHandler rebalances;
    private final StallCheck stalls;
    private final ShutdownSequence shutdown;
    /** Builds the exactly-once steps once the source and the sinks are open; null at least once. */
    private final Supplier<TransactionSteps> exactlyOnce;
    /** The chain's asynchronous stages, whose completed calls the loop carries on with. */
    private final AsyncStages stages;

    private final MeterRegistry registry;
    /** The clock of the loop's timers: linger, commit floor, stall check. */
    private final EngineTime time;

    private final ProcessingOutput output = new ProcessingOutput();
    private final CompletableFuture<PipelineResult> result = new CompletableFuture<>();
    /** Exactly-once mode only, once the source is open; null at least once. */
    private TransactionSteps transactions;

    private volatile long lastActivityMillis = System.currentTimeMillis();
    private volatile long stopRequestedNanos;
    private volatile boolean stopRequested;
    /** Source and every sink open (pipeline thread). */
    private boolean opened;

    private long startNanos;
    /** When the paused source was last polled while blocked ({@link System#nanoTime()}). */
    private long blockedPollNanos;

    /**
     * The runner of parts that {@link PipelineRunnerFactory} built for one run.
     *
     * @param name        the pipeline's name
     * @param signals     the run's failure, the pipeline thread's wake-ups and the pools' events
     * @param source      the source
     * @param opening     opens the sinks and the source
     * @param buffer      the records of the last poll
     * @param entry       where records enter the chain
     * @param sinks       the sink pools and the dead letters
     * @param pause       pauses the source while the pipeline is blocked
     * @param partitions  the partitions owned now
     * @param commits     when watermarks are committed, and what counts as committed
     * @param rebalances  what a rebalance does
     * @param stalls      finds partitions stalled behind a failed batch
     * @param shutdown    how the run stops
     * @param exactlyOnce builds the exactly-once steps once everything is open (null at least once)
     * @param stages      the chain's asynchronous stages
     * @param registry    where the run's meters are
     * @param time        the clock of the loop's timers
     */
    PipelineRunner(
            String name,
            PipelineSignals signals,
            Source<Object> source,
            PipelineOpening opening,
            PollBuffer buffer,
            RecordEntry entry,
            PipelineSinks sinks,
            SourcePause pause,
            OwnedPartitions partitions,
            CommitScheduler commits,
            RebalanceHandler rebalances,
            StallCheck stalls,
            ShutdownSequence shutdown,
            Supplier<TransactionSteps> exactlyOnce,
            AsyncStages stages,
            MeterRegistry registry,
            EngineTime time) {
        this.name = name;
        this.state = new PipelineStateMachine(name);
        this.signals = signals;
        this.source = source;
        this.opening = opening;
        this.buffer = buffer;
        this.entry = entry;
        this.sinks = sinks;
        this.pause = pause;
        this.partitions = partitions;
        this.commits = commits;
        this.rebalances = rebalances;
        this.stalls = stalls;
        this.shutdown = shutdown;
        this.exactlyOnce = exactlyOnce;
        this.stages = stages;
        this.registry = registry;
        this.time = time;
    }

    /** Starts {@code definition} on a new thread. */
    public static RunningPipeline start(PipelineDefinition definition, PipelineConfig config, MeterRegistry registry) {
        return start(definition, config, registry, EngineTime.SYSTEM);
    }

    /**
     * Starts {@code definition} on a new thread, its timers on {@code time}; on {@code pipeline.threads} threads
     * ({@link PipelineLoops}) when that is more than 1.
     */
    public static RunningPipeline start(
            PipelineDefinition definition, PipelineConfig config, MeterRegistry registry, EngineTime time) {
        if (config.pipeline().threads() > 1) {
            return PipelineLoops.start(definition, config, registry, time);
        }
        PipelineRunner runner = PipelineRunnerFactory.create(definition, config, registry, time);
        runner.startThread("etl-" + runner.name);
        return runner;
    }

    /** Runs the loop on a new thread named {@code threadName}. */
    void startThread(String threadName) {
        Thread t = new Thread(this::runLoop, threadName);
        signals.wakes(t);
        t.start();
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
        return partitions.snapshot();
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
        state.drain();
        opening.stop();
        signals.wake();
    }

    @Override
    public Map<SourcePartition, Long> committedOffsets() {
        return commits.committedOffsets();
    }

    @Override
    public Optional<String> waitingFor() {
        return source.waitingFor();
    }

    @Override
    public MeterRegistry meterRegistry() {
        return registry;
    }

    @Override
    public PipelineResult stopAndWait(Duration timeout) {
        stop();
        return awaitResult(name, result, timeout);
    }

    /** Waits up to {@code timeout} for the result of pipeline {@code name}, which was asked to stop. */
    static PipelineResult awaitResult(String name, CompletableFuture<PipelineResult> result, Duration timeout) {
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
        stopAndWait(shutdown.shutdownTimeout().plusSeconds(5));
    }

    // ---- the loop ----------------------------------------------------------------------------------------

    private void runLoop() {
        startNanos = System.nanoTime();
        MDC.put("pipeline", name);
        try {
            try {
                opening.open(this);
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
            if (!partitions.isEmpty() && !stopRequested && !signals.failed()) {
                // a source that took partitions while it opened runs only now that every sink is open
                state.flowing(pause.paused());
            }
            transactions = exactlyOnce.get();
            if (transactions != null) {
                rebalances.exactlyOnce(transactions);
            }
            LOG.info("pipeline '{}' started: source '{}', sinks {}", name, source.name(), sinks.names());
            loop();
        } catch (PipelineStop stop) {
            signals.fail(stop.getCause());
        } catch (Throwable t) {
            signals.fail(t);
        } finally {
            finish();
        }
    }

    private void loop() {
        // checkpoint.interval is the floor between two commits: one is sent as soon as a watermark moved,
        // the previous one completed, and the floor has passed since it was sent
        long floor = commits.floorNanos();
        long drainNanos = shutdown.drainTimeout().toNanos();
        long nextHousekeeping = time.nanoTime() + HOUSEKEEPING_NANOS;
        commits.start(time.nanoTime());
        long maxPoll = source.pollTimeout().toNanos();
        blockedPollNanos = System.nanoTime() - BLOCKED_POLL_GAP_NANOS;
        while (!stopRequested && !signals.failed()) {
            lastActivityMillis = System.currentTimeMillis();
            if (transactions != null) {
                transactions.abortIfDoomed();
            }
            sinks.pumpDeadLetters();
            continueAsync();
            boolean blocked = !processBuffer();
            setPaused(blocked);
            long now = time.nanoTime();
            long wait;
            if (blocked) {
                wait = stages.capWait(BLOCKED_POLL_NANOS);
            } else {
                buffer.clear();
                wait = Math.min(maxPoll, nextHousekeeping - now);
                if (commits.expectsProgress()) {
                    // a watermark may move while we wait: come back for it after the floor
                    wait = Math.min(wait, Math.max(floor, BLOCKED_POLL_NANOS));
                }
                // a batch whose window has room is due now (a window that took its acknowledgements has room):
                // hand it over before the poll, so the poll may wait for records instead of returning at once
                // only for the batch to be sealed after it
                sinks.tick(now);
                wait = stages.capWait(sinks.capWait(wait, now));
            }
            output.resume();
            if (blocked) {
                awaitSinks(output, wait);
            } else {
                source.poll(Duration.ofNanos(Math.max(0, wait)), output);
            }
            now = time.nanoTime();
            sinks.tick(now);
            if (transactions != null) {
                // exactly once: one transaction per checkpoint.interval, offsets inside it
                if (commits.due(now)) {
                    transactions.commit(System.nanoTime() + drainNanos);
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
    }

    /**
     * Carries on with the calls of asynchronous stages that completed, unless the sinks have no room for their
     * output (the stages then hold on to it, and take no new records once full, but still time out overdue calls).
     */
    private void continueAsync() {
        if (!sinks.blocked()) {
            stages.drain();
        } else {
            stages.expireOverdue();
        }
    }

    /**
     * While blocked: the source is paused, so a poll only keeps the group's business going (commits, heartbeats,
     * rebalances) and returns at once, and comes at most once a millisecond however often the thread is woken;
     * then the thread parks until a sink or an asynchronous stage wakes it (a
     * write completed, a batch was acknowledged, a call returned) or {@code parkNanos} passed. A poll that waited
     * instead could not be woken.
     */
    private void awaitSinks(ProcessingOutput output, long parkNanos) {
        long now = System.nanoTime();
        if (now - blockedPollNanos >= BLOCKED_POLL_GAP_NANOS) {
            source.poll(Duration.ZERO, output);
            blockedPollNanos = System.nanoTime();
        }
        LockSupport.parkNanos(this, Math.max(0, parkNanos));
    }

    /**
     * Pushes buffered records through the chain; false when a full sink pool, a full asynchronous stage, too many
     * records the checkpointer tracks, or too many dead letters in flight stopped it.
     */
    private boolean processBuffer() {
        int size = buffer.size();
        while (buffer.position() < size) {
            if (sinks.blocked()) {
                return false;
            }
            stages.drain();
            if (stages.saturated()) {
                return false;
            }
            if ((buffer.position() & PENDING_CHECK_MASK) == 0) {
                if (entry.full()) {
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
            RecordMeta meta = buffer.meta(i);
            if (transactions != null) {
                transactions.entering(meta);
            }
            entry.process(buffer.value(i), meta);
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

        private void processNow() {
            if (!blocked && !stopRequested && !signals.failed()) {
                blocked = !processBuffer();
            }
        }
    }

    private void setPaused(boolean blocked) {
        if (pause.blocked(blocked) && state.current() != PipelineState.STARTING) {
            state.flowing(blocked);
        }
    }

    /** Drains and closes ({@link ShutdownSequence}), then ends the run with its result. */
    private void finish() {
        if (opened || stopRequested) {
            state.transition(PipelineState.DRAINING);
        }
        // else the opening failed: the parts that did open are closed below, with nothing read to drain
        long begun = stopRequested ? stopRequestedNanos : System.nanoTime();
        shutdown.run(begun, opened, opening.sourceOpened(), transactions);
        buffer.clear(); // what is left was never processed: uncommitted, read again by the next run
        Throwable f = signals.failure();
        long abandoned = signals.abandonedBatches();
        PipelineResult.Status status = f != null
                ? PipelineResult.Status.FAILED
                : abandoned > 0 ? PipelineResult.Status.ABANDONED : PipelineResult.Status.COMPLETED;
        Duration elapsed = Duration.ofNanos(System.nanoTime() - startNanos);
        long read = buffer.readTotal();
        long unprocessed = buffer.unprocessedTotal();
        if (unprocessed > 0) {
            LOG.info(
                    "pipeline '{}' stopped: {} ({} records read in {} ms, {} of them not processed: left uncommitted"
                            + " to be read again)",
                    name,
                    status,
                    read,
                    elapsed.toMillis(),
                    unprocessed);
        } else {
            LOG.info("pipeline '{}' stopped: {} ({} records in {} ms)", name, status, read, elapsed.toMillis());
        }
        state.transition(f != null ? PipelineState.FAILED : PipelineState.STOPPED);
        MDC.remove("pipeline");
        result.complete(new PipelineResult(name, status, f, read, abandoned, elapsed));
    }

    // ---- PartitionListener (called inside source.poll, on this thread) ----------------------------------

    @Override
    public void onAssigned(Collection<SourcePartition> assigned) {
        rebalances.assigned(assigned);
        if (!assigned.isEmpty() && opened && !stopRequested && !signals.failed()) {
            state.flowing(pause.paused());
        }
    }

    @Override
    public Map<SourcePartition, Long> onRevoked(Collection<SourcePartition> revoked, Duration waitUpTo) {
        return rebalances.revoked(revoked, waitUpTo);
    }

    @Override
    public void onLost(Collection<SourcePartition> lost) {
        rebalances.lost(lost);
    }
}
