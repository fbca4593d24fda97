package io.etl.core.internal.runtime;

import io.etl.core.PipelineResult;
import io.etl.core.PipelineState;
import io.etl.core.PipelineStateListener;
import io.etl.core.RunningPipeline;
import io.etl.core.checkpoint.RunContext;
import io.etl.core.config.PipelineConfig;
import io.etl.core.error.ConfigException;
import io.etl.core.internal.dsl.PipelineDefinition;
import io.etl.core.source.Source;
import io.etl.core.source.SourcePartition;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A pipeline run on {@code pipeline.threads} loops in one process, as Kafka Streams runs
 * {@code num.stream.threads} stream threads: each loop is a whole {@link PipelineRunner} (its own source, a member
 * of the group, its own chain, sink pools and checkpointer) on a thread of its own, and all of them share one
 * {@link RunContext}, so their sinks share producers. Seen from outside it is one {@link RunningPipeline}: ready
 * when every loop is, stopped when every loop has drained; a loop that fails stops the others, and the run fails.
 */
final class PipelineLoops implements RunningPipeline {

    private static final Logger LOG = LoggerFactory.getLogger(PipelineLoops.class);

    private final String name;
    private final List<PipelineRunner> loops;
    private final MeterRegistry registry;
    private final Duration shutdownTimeout;
    /** The state seen from outside, derived from the loops' states by {@link #combined}. */
    private final PipelineStateMachine state;

    private final CompletableFuture<PipelineResult> result = new CompletableFuture<>();
    /** The first loop failure, which the run's result carries. */
    private final AtomicReference<Throwable> firstFailure = new AtomicReference<>();

    private PipelineLoops(String name, List<PipelineRunner> loops, MeterRegistry registry, Duration shutdownTimeout) {
        this.name = name;
        this.loops = List.copyOf(loops);
        this.registry = registry;
        this.shutdownTimeout = shutdownTimeout;
        this.state = new PipelineStateMachine(name);
    }

    /** Starts {@code config.pipeline().threads()} loops of {@code definition}, each on a thread of its own. */
    @SuppressWarnings("unchecked")
    static RunningPipeline start(
            PipelineDefinition definition, PipelineConfig config, MeterRegistry registry, EngineTime time) {
        int threads = config.pipeline().threads();
        List<Source<Object>> sources = new ArrayList<>(threads);
        for (int loop = 1; loop <= threads; loop++) {
            try {
                sources.add((Source<Object>) definition.source().forLoop(loop, threads));
            } catch (UnsupportedOperationException e) {
                throw ConfigException.of(
                        "pipeline.threads", "is " + threads + " but " + e.getMessage() + ": set it to 1");
            }
        }
        RunContext run = PipelineRunnerFactory.runContext(config);
        List<PipelineRunner> runners = new ArrayList<>(threads);
        for (int loop = 1; loop <= threads; loop++) {
            runners.add(
                    PipelineRunnerFactory.create(definition, config, registry, time, run, sources.get(loop - 1), loop));
        }
        PipelineLoops loops = new PipelineLoops(
                runners.get(0).name(), runners, registry, config.pipeline().shutdownTimeout());
        loops.watch();
        LOG.info("pipeline '{}': {} loops", loops.name, threads);
        for (int loop = 1; loop <= threads; loop++) {
            runners.get(loop - 1).startThread("etl-" + loops.name + "-" + loop);
        }
        return loops;
    }

    /** Follows every loop's state and result, before any of them starts. */
    private void watch() {
        for (PipelineRunner loop : loops) {
            loop.addStateListener((from, to) -> follow());
            loop.result().whenComplete((r, e) -> ended(r, e));
        }
    }

    /** Moves the run's state to what the loops' states say together, through {@code DRAINING} to an end. */
    private synchronized void follow() {
        PipelineState next = combined(loops.stream().map(PipelineRunner::state).toList());
        PipelineState now = state.current();
        if (next == now || now.isTerminal()) {
            return;
        }
        if (next.isTerminal() && !PipelineStateMachine.isLegal(now, next)) {
            state.transition(PipelineState.DRAINING);
            now = PipelineState.DRAINING;
        }
        if (PipelineStateMachine.isLegal(now, next)) {
            state.transition(next);
        }
    }

    /**
     * The state of a run whose loops are in {@code states}: ended when all ended (failed if one failed), draining
     * while one drains or ended, starting while one has no partitions yet, backpressured while one is, else running.
     */
    static PipelineState combined(List<PipelineState> states) {
        if (states.stream().allMatch(PipelineState::isTerminal)) {
            return states.contains(PipelineState.FAILED) ? PipelineState.FAILED : PipelineState.STOPPED;
        }
        if (states.contains(PipelineState.DRAINING) || states.stream().anyMatch(PipelineState::isTerminal)) {
            return PipelineState.DRAINING;
        }
        if (states.contains(PipelineState.STARTING)) {
            return PipelineState.STARTING;
        }
        return states.contains(PipelineState.BACKPRESSURED) ? PipelineState.BACKPRESSURED : PipelineState.RUNNING;
    }

    /** A loop ended: a failed one stops the others; the last one completes the run's result. */
    private void ended(PipelineResult loop, Throwable error) {
        Throwable failure = error != null ? error : loop.failure();
        if (failure != null || (loop != null && loop.status() == PipelineResult.Status.FAILED)) {
            if (firstFailure.compareAndSet(null, failure) && failure != null) {
                LOG.error("pipeline '{}': a loop failed, stopping the others: {}", name, failure.toString());
            }
            loops.forEach(PipelineRunner::stop);
        }
        if (loops.stream().allMatch(l -> l.result().isDone())) {
            result.complete(combinedResult());
        }
    }

    /** The loops' results as one: the worst status, the first failure, records and abandoned batches summed. */
    private PipelineResult combinedResult() {
        PipelineResult.Status status = PipelineResult.Status.COMPLETED;
        long read = 0;
        long abandoned = 0;
        Duration elapsed = Duration.ZERO;
        for (PipelineRunner loop : loops) {
            PipelineResult r = loop.result().getNow(null);
            if (r == null) {
                status = PipelineResult.Status.FAILED;
                continue;
            }
            if (r.status().compareTo(status) > 0) {
                status = r.status();
            }
            read += r.recordsIn();
            abandoned += r.abandonedBatches();
            elapsed = r.elapsed().compareTo(elapsed) > 0 ? r.elapsed() : elapsed;
        }
        Throwable failure = firstFailure.get();
        if (failure != null) {
            status = PipelineResult.Status.FAILED;
        }
        return new PipelineResult(name, status, failure, read, abandoned, elapsed);
    }

    // ---- RunningPipeline ---------------------------------------------------------------------------------

    @Override
    public String name() {
        return name;
    }

    @Override
    public CompletableFuture<PipelineResult> result() {
        return result;
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
    public void stop() {
        loops.forEach(PipelineRunner::stop);
    }

    /** Per partition, the highest offset a loop committed: a partition that moved between loops went forward. */
    @Override
    public Map<SourcePartition, Long> committedOffsets() {
        Map<SourcePartition, Long> all = new HashMap<>();
        for (PipelineRunner loop : loops) {
            loop.committedOffsets().forEach((p, offset) -> all.merge(p, offset, Math::max));
        }
        return all;
    }

    @Override
    public Set<SourcePartition> assignedPartitions() {
        Set<SourcePartition> all = new HashSet<>();
        loops.forEach(l -> all.addAll(l.assignedPartitions()));
        return all;
    }

    @Override
    public Optional<Instant> lastCommitTime() {
        return loops.stream()
                .map(PipelineRunner::lastCommitTime)
                .flatMap(Optional::stream)
                .max(Instant::compareTo);
    }

    /** The oldest of the loops': a loop that is stuck makes the run look stuck. */
    @Override
    public Instant lastActivity() {
        return loops.stream()
                .map(PipelineRunner::lastActivity)
                .min(Instant::compareTo)
                .orElseThrow();
    }

    @Override
    public Optional<String> waitingFor() {
        return loops.stream()
                .map(PipelineRunner::waitingFor)
                .flatMap(Optional::stream)
                .findFirst();
    }

    @Override
    public MeterRegistry meterRegistry() {
        return registry;
    }

    @Override
    public PipelineResult stopAndWait(Duration timeout) {
        stop();
        return PipelineRunner.awaitResult(name, result, timeout);
    }

    @Override
    public void close() {
        stopAndWait(shutdownTimeout.plusSeconds(5));
    }
}
