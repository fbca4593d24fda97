package io.etl.core.internal.runtime;

import io.etl.core.internal.chain.AsyncStages;
import io.etl.core.internal.chain.PipelineStop;
import io.etl.core.internal.checkpoint.Checkpointer;
import io.etl.core.source.SourcePartition;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Waits on the pipeline thread until the outputs handed to the sinks are acknowledged: those of some partitions
 * (before they are revoked) or of every record (at a transaction's checkpoint, before an abort). It seals every
 * open batch first, and meanwhile writes the dead letters that sink workers hand over and carries on with the
 * calls of asynchronous stages that completed, since a record waits for those too. A failed run ends every wait.
 */
final class AcknowledgementWait {

    private static final long REVOKE_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(2);
    private static final long CHECKPOINT_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final PipelineSinks sinks;
    private final Checkpointer checkpointer;
    private final RunFailure failure;
    private final AsyncStages stages;

    AcknowledgementWait(PipelineSinks sinks, Checkpointer checkpointer, RunFailure failure, AsyncStages stages) {
        this.sinks = sinks;
        this.checkpointer = checkpointer;
        this.failure = failure;
        this.stages = stages;
    }

    /**
     * Waits until every record of {@code partitions} is done, {@code deadline} passes, or one of them waits
     * behind a batch that failed; returns whether they are all done.
     */
    boolean partitions(Set<SourcePartition> partitions, long deadline) {
        sinks.flushAll(deadline);
        while (!checkpointer.idle(partitions)
                && System.nanoTime() < deadline
                && !failure.failed()
                && checkpointer.firstFailure(partitions) == null) {
            sinks.settle();
            sinks.pumpAndFlushHandedOver(deadline);
            continueAsync(deadline);
            LockSupport.parkNanos(this, REVOKE_PARK_NANOS);
        }
        if (!checkpointer.idle(partitions)) {
            giveUp(partitions);
            return false;
        }
        return true;
    }

    /**
     * Forgets what asynchronous stages hold of {@code partitions}, which leave this instance: those records stay
     * uncommitted and replay at the next owner.
     */
    void giveUp(Set<SourcePartition> partitions) {
        stages.forget(partitions);
    }

    /**
     * Carries on with the asynchronous stages' completed calls (a record waits for them too) and seals what they
     * wrote at once: someone waits for it. A record whose call failed with policy {@code fail} fails the run.
     */
    private void continueAsync(long deadline) {
        try {
            if (stages.drain() > 0) {
                sinks.flushAll(deadline);
            }
        } catch (PipelineStop stop) {
            failure.fail(stop.getCause());
        }
    }

    /**
     * Waits until every record is done, {@code deadline} passes, or {@code giveUp} says so; dead letters handed
     * over meanwhile are sealed at once. Returns whether every record is done.
     */
    boolean all(long deadline, BooleanSupplier giveUp) {
        sinks.flushAll(deadline);
        while (!checkpointer.allIdle() && System.nanoTime() < deadline && !failure.failed() && !giveUp.getAsBoolean()) {
            sinks.settle();
            sinks.pumpAndFlushHandedOver(deadline);
            continueAsync(deadline);
            LockSupport.parkNanos(this, CHECKPOINT_PARK_NANOS);
        }
        return checkpointer.allIdle();
    }

    /**
     * Waits until every write has finished, acknowledged or not, or {@code deadline} passes; dead letters handed
     * over meanwhile are written as their pool seals them. Returns whether every record is done.
     */
    boolean allWrites(long deadline) {
        sinks.flushAll(deadline);
        while (!checkpointer.allIdle() && System.nanoTime() < deadline && !failure.failed()) {
            sinks.settle();
            sinks.pumpHandedOver();
            continueAsync(deadline);
            LockSupport.parkNanos(this, CHECKPOINT_PARK_NANOS);
        }
        return checkpointer.allIdle();
    }
}
