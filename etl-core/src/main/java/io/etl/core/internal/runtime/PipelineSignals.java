package io.etl.core.internal.runtime;

import io.etl.core.internal.chain.RecordErrors;
import io.etl.core.internal.pool.PoolEvents;
import io.etl.core.internal.pool.Refusal;
import io.etl.core.sink.SealedBatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How the pipeline thread hears from the rest of the run: the run's first failure, wake-ups when there is
 * something to look at, and the sink pools' events (acknowledgements, failed and abandoned batches, refused
 * messages). Safe for any thread.
 */
final class PipelineSignals implements PoolEvents, RunFailure {

    private static final Logger LOG = LoggerFactory.getLogger(PipelineSignals.class);

    private final String pipeline;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final AtomicLong abandonedBatches = new AtomicLong();
    private volatile Thread thread;
    /** Set once while the runner is built (the errors need the pools, which need these events). */
    private RecordErrors errors;

    PipelineSignals(String pipeline) {
        this.pipeline = pipeline;
    }

    /** Where refused messages go; set before any pool starts. */
    void errors(RecordErrors recordErrors) {
        this.errors = recordErrors;
    }

    /** The thread to wake: the pipeline thread, before it starts. */
    void wakes(Thread pipelineThread) {
        this.thread = pipelineThread;
    }

    /** Fails the run with {@code cause} unless it failed already, and wakes the pipeline thread to stop. */
    @Override
    public void fail(Throwable cause) {
        if (failure.compareAndSet(null, cause)) {
            LOG.error("pipeline '{}' failed: {}", pipeline, cause.getMessage());
        }
        wake();
    }

    /** Keeps {@code cause} as the run's failure unless one came first; logs nothing (the caller did). */
    @Override
    public void keepFirst(Throwable cause) {
        failure.compareAndSet(null, cause);
    }

    @Override
    public boolean failed() {
        return failure.get() != null;
    }

    /** The run's first failure, or null. */
    Throwable failure() {
        return failure.get();
    }

    /** Batches given up at shutdown, over every sink. */
    long abandonedBatches() {
        return abandonedBatches.get();
    }

    void wake() {
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    @Override
    public void acknowledged() {
        wake();
    }

    @Override
    public void writeCompleted() {
        wake();
    }

    @Override
    public void batchFailed(SealedBatch<?> batch, Throwable cause) {
        if (batch == null) {
            fail(cause);
        }
        wake();
    }

    @Override
    public void refused(Refusal refusal) {
        errors.refused(refusal);
    }

    @Override
    public void batchesAbandoned(String sink, int shard, int batches, long records) {
        abandonedBatches.addAndGet(batches);
        LOG.error(
                "pipeline '{}': sink '{}' shard {} abandoned {} batch(es) with {} record(s); they were not committed"
                        + " and replay after a restart",
                pipeline,
                sink,
                shard,
                batches,
                records);
    }
}
