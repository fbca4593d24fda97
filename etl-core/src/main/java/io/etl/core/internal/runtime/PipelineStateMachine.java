package io.etl.core.internal.runtime;

import io.etl.core.PipelineState;
import io.etl.core.PipelineStateListener;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A pipeline's {@link PipelineState} and its listeners. The state only moves forward: once draining only to
 * an end, once ended never again. Each move is told to the listeners on the thread that made it; a listener
 * that throws is logged and does not stop the others.
 */
final class PipelineStateMachine {

    // part of the runner: logs under its name
    private static final Logger LOG = LoggerFactory.getLogger(PipelineRunner.class);

    private final String pipeline;
    private final AtomicReference<PipelineState> state = new AtomicReference<>(PipelineState.STARTING);
    private final List<PipelineStateListener> listeners = new CopyOnWriteArrayList<>();

    PipelineStateMachine(String pipeline) {
        this.pipeline = pipeline;
    }

    PipelineState current() {
        return state.get();
    }

    void addListener(PipelineStateListener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /** Moves to {@code to} unless the pipeline already ended; tells the listeners. */
    void transition(PipelineState to) {
        PipelineState from;
        do {
            from = state.get();
            if (from == to || from.isTerminal() || (from == PipelineState.DRAINING && !to.isTerminal())) {
                return;
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
    }
}
