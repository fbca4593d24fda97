package io.etl.core.internal.runtime;

/**
 * The run's first failure, as the runner's parts see it: they may fail the run, keep a failure that a step of
 * the stop met, and ask whether the run has failed. {@link PipelineSignals} holds it. Safe for any thread.
 */
interface RunFailure {

    /** Fails the run with {@code cause} unless it failed already (logged), and wakes the pipeline thread. */
    void fail(Throwable cause);

    /** Keeps {@code cause} as the run's failure unless one came first; logs nothing (the caller did). */
    void keepFirst(Throwable cause);

    /** Whether the run has failed. */
    boolean failed();
}
