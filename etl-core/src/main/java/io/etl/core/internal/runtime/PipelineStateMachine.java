package io.etl.core.internal.runtime;

import io.etl.core.PipelineState;
import io.etl.core.PipelineStateListener;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A pipeline's {@link PipelineState} and its listeners. The state moves only as {@link #isLegal} allows, as
 * {@code KafkaStreams.State} does: forward, between {@code RUNNING} and {@code BACKPRESSURED} while records flow,
 * once draining only to an end, once ended never again. An illegal move is a bug and throws. Each move is told
 * to the listeners on the thread that made it; a listener that throws is logged and does not stop the others.
 *
 * <p>A stop may be requested from any thread at any time ({@link #drain()}), so the pipeline thread's report
 * that records flow ({@link #flowing}) gives way to a stop that began meanwhile instead of failing.
 */
final class PipelineStateMachine {

    private static final Logger LOG = LoggerFactory.getLogger(PipelineStateMachine.class);

    /** The states each state may move to. */
    private static final Map<PipelineState, Set<PipelineState>> NEXT = new EnumMap<>(PipelineState.class);

    static {
        NEXT.put(
                PipelineState.STARTING,
                // FAILED straight from STARTING: a start that failed before everything opened has nothing to drain
                EnumSet.of(
                        PipelineState.RUNNING,
                        PipelineState.BACKPRESSURED,
                        PipelineState.DRAINING,
                        PipelineState.FAILED));
        NEXT.put(PipelineState.RUNNING, EnumSet.of(PipelineState.BACKPRESSURED, PipelineState.DRAINING));
        NEXT.put(PipelineState.BACKPRESSURED, EnumSet.of(PipelineState.RUNNING, PipelineState.DRAINING));
        NEXT.put(PipelineState.DRAINING, EnumSet.of(PipelineState.STOPPED, PipelineState.FAILED));
        NEXT.put(PipelineState.STOPPED, EnumSet.noneOf(PipelineState.class));
        NEXT.put(PipelineState.FAILED, EnumSet.noneOf(PipelineState.class));
    }

    private final String pipeline;
    private final AtomicReference<PipelineState> state = new AtomicReference<>(PipelineState.STARTING);
    private final List<PipelineStateListener> listeners = new CopyOnWriteArrayList<>();

    PipelineStateMachine(String pipeline) {
        this.pipeline = pipeline;
    }

    /** Whether a pipeline in state {@code from} may move to {@code to} (a different state). */
    static boolean isLegal(PipelineState from, PipelineState to) {
        return NEXT.get(from).contains(to);
    }

    PipelineState current() {
        return state.get();
    }

    void addListener(PipelineStateListener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * Moves to {@code to} and tells the listeners; a move to the current state changes nothing.
     *
     * @throws IllegalStateException naming both states when the move is not {@linkplain #isLegal legal}
     */
    void transition(PipelineState to) {
        move(to, false);
    }

    /**
     * Records flow, paused by full sinks when {@code backpressured}: moves to {@code BACKPRESSURED} or
     * {@code RUNNING}, unless a stop began (the pipeline is draining or ended), which wins.
     */
    void flowing(boolean backpressured) {
        move(backpressured ? PipelineState.BACKPRESSURED : PipelineState.RUNNING, true);
    }

    /** A stop began: moves to {@code DRAINING} unless it is draining or ended; returns whether it moved. */
    boolean drain() {
        return move(PipelineState.DRAINING, true);
    }

    private boolean move(PipelineState to, boolean unlessStopping) {
        PipelineState from;
        do {
            from = state.get();
            if (from == to || (unlessStopping && (from == PipelineState.DRAINING || from.isTerminal()))) {
                return false;
            }
            if (!isLegal(from, to)) {
                throw new IllegalStateException(
                        "pipeline '" + pipeline + "': illegal state transition from " + from + " to " + to);
            }
        } while (!state.compareAndSet(from, to));
        LOG.debug("pipeline '{}': {} -> {}", pipeline, from, to);
        for (PipelineStateListener listener : listeners) {
            try {
                listener.onChange(from, to);
            } catch (RuntimeException e) {
                LOG.warn("pipeline '{}': state listener failed on {} -> {}: {}", pipeline, from, to, e.toString());
            }
        }
        return true;
    }
}
