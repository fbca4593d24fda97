package io.etl.core;

/**
 * Where a started pipeline is in its life. A pipeline moves forward through these states and never
 * leaves {@link #STOPPED} or {@link #FAILED}; watch it with {@link RunningPipeline#state()} and
 * {@link RunningPipeline#addStateListener(PipelineStateListener)}.
 *
 * <pre>
 * STARTING ──▶ RUNNING ◀──▶ BACKPRESSURED
 *    │            │              │
 *    ├────────────┴──────────────┴──▶ DRAINING ──▶ STOPPED | FAILED
 *    └──▶ FAILED
 * </pre>
 *
 * <p>A pipeline whose first partitions arrive while its sinks are full goes from {@link #STARTING} straight to
 * {@link #BACKPRESSURED}. One whose source or a sink fails to open (brokers unreachable, a topic missing) goes
 * from {@link #STARTING} straight to {@link #FAILED}: nothing was read, so there is nothing to drain.
 *
 * <p>Health checks derive from it: a pipeline is ready in {@link #RUNNING} and {@link #BACKPRESSURED}.
 */
public enum PipelineState {
    /** Connecting its sinks and source; no partition assigned yet. */
    STARTING,
    /** Partitions are assigned and records flow. */
    RUNNING,
    /** The sinks are full: the source is paused (it keeps polling so the group keeps it) until room frees up. */
    BACKPRESSURED,
    /**
     * Stopping, from the moment a stop was requested or an error occurred: reading ends, open batches are
     * written and the final offsets committed. No state but {@link #STOPPED} or {@link #FAILED} follows.
     */
    DRAINING,
    /** Stopped on request; {@link RunningPipeline#result()} tells whether everything was drained. */
    STOPPED,
    /** Stopped by an error; {@link RunningPipeline#result()} holds the cause. */
    FAILED;

    /** Whether the pipeline has ended ({@link #STOPPED} or {@link #FAILED}); no state follows. */
    public boolean isTerminal() {
        return this == STOPPED || this == FAILED;
    }
}
