package io.etl.core.internal.runtime;

import io.etl.core.error.ErrorPolicy;
import io.etl.core.error.FatalException;
import io.etl.core.internal.pool.PoolEvents;
import io.etl.core.internal.pool.Refusal;
import io.etl.core.sink.SealedBatch;
import java.util.function.Consumer;

/**
 * The dead-letter pool's events: like any pool's, except that a dead-letter batch that fails fatally fails
 * the pipeline at once instead of stalling its partitions first, because nothing else would ever store
 * those records.
 */
final class DeadLetterEvents implements PoolEvents {

    private final PoolEvents delegate;
    private final Consumer<Throwable> pipelineFailure;

    private DeadLetterEvents(PoolEvents delegate, Consumer<Throwable> pipelineFailure) {
        this.delegate = delegate;
        this.pipelineFailure = pipelineFailure;
    }

    static PoolEvents failFast(PoolEvents delegate, Consumer<Throwable> pipelineFailure) {
        return new DeadLetterEvents(delegate, pipelineFailure);
    }

    @Override
    public void acknowledged() {
        delegate.acknowledged();
    }

    @Override
    public void writeCompleted() {
        delegate.writeCompleted();
    }

    @Override
    public void batchFailed(SealedBatch<?> batch, Throwable cause) {
        pipelineFailure.accept(new FatalException(
                "the dead-letter sink cannot store "
                        + (batch == null ? "dead letters" : batch.size() + " dead letter(s)") + ": "
                        + cause.getMessage(),
                cause));
        delegate.batchFailed(batch, cause);
    }

    @Override
    public void batchesAbandoned(String sink, int shard, int batches, long records) {
        delegate.batchesAbandoned(sink, shard, batches, records);
    }

    @Override
    public void refused(Refusal refusal) {
        // a dead letter the destination refuses is never dropped: it fails the pipeline
        delegate.refused(refusal.withPolicy(ErrorPolicy.FAIL));
    }
}
