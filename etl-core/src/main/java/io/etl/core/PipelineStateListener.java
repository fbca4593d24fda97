package io.etl.core;

/**
 * Told of every change of a {@link RunningPipeline}'s {@link PipelineState}, on the thread that made the
 * change (usually the pipeline's own thread): keep it short and never block. An exception it throws is
 * logged and otherwise ignored.
 *
 * <pre>{@code
 * running.addStateListener((from, to) -> log.info("pipeline is now {}", to));
 * }</pre>
 */
@FunctionalInterface
public interface PipelineStateListener {

    /** The state changed from {@code oldState} to {@code newState}. */
    void onChange(PipelineState oldState, PipelineState newState);
}
