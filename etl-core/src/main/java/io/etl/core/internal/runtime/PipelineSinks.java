package io.etl.core.internal.runtime;

import io.etl.core.internal.chain.DeadLetters;
import io.etl.core.internal.pool.SinkPool;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sink pools of one pipeline, the dead-letter pool (if any) last, and the dead letters that sink workers
 * hand over to be written by the pipeline thread: the steps the loop, a checkpoint, a revoke and the drain
 * take on all of them. Used on the pipeline thread only.
 */
final class PipelineSinks {

    private static final Logger LOG = LoggerFactory.getLogger(PipelineSinks.class);

    private final String pipeline;
    private final List<SinkPool<Object, ?>> pools;
    private final SinkPool<?, ?> deadLetterPool;
    private final DeadLetters deadLetters;
    /** Shards of all pools whose sealed batches wait for room: while 0, no pool is blocked. */
    private int overflowing;

    /**
     * @param pipeline       the pipeline's name, for the log
     * @param pools          every pool, the dead-letter pool last (the runner keeps this list too)
     * @param deadLetterPool the pool of the {@code dead_letter} sink, or null
     * @param deadLetters    where rejected records go, or null when no stage dead-letters
     */
    PipelineSinks(
            String pipeline, List<SinkPool<Object, ?>> pools, SinkPool<?, ?> deadLetterPool, DeadLetters deadLetters) {
        this.pipeline = pipeline;
        this.pools = pools;
        this.deadLetterPool = deadLetterPool;
        this.deadLetters = deadLetters;
        for (SinkPool<Object, ?> pool : pools) {
            pool.countOverflowsIn(change -> overflowing += change);
        }
    }

    /** Where rejected records go, or null when no stage dead-letters. */
    DeadLetters deadLetters() {
        return deadLetters;
    }

    List<String> names() {
        return pools.stream().map(SinkPool::name).toList();
    }

    /** Seals and queues every open batch, waiting for room until {@code deadline}. */
    void flushAll(long deadline) {
        for (SinkPool<Object, ?> pool : pools) {
            pool.flushAll(deadline);
        }
    }

    /** Whether a pool holds sealed batches its queues have no room for: nothing more may enter. */
    boolean blocked() {
        if (overflowing == 0) {
            return false;
        }
        for (int p = 0; p < pools.size(); p++) {
            if (pools.get(p).blocked()) {
                return true;
            }
        }
        return false;
    }

    /** Seals the batches whose linger ran out. */
    void tick(long now) {
        for (SinkPool<Object, ?> pool : pools) {
            pool.tick(now);
        }
    }

    /** Hands the open batches of idle shards to their writers ({@link SinkPool#sealIdle()}). */
    void sealIdle() {
        for (SinkPool<Object, ?> pool : pools) {
            pool.sealIdle();
        }
    }

    /**
     * Settles the writes that completed in the pools the pipeline thread drives, and writes what their windows
     * allow ({@link SinkPool#settle()}): every wait for acknowledgements on this thread calls it.
     */
    void settle() {
        for (int p = 0; p < pools.size(); p++) {
            pools.get(p).settle();
        }
    }

    /** {@code wait}, or less when a pool has a batch to seal sooner. */
    long capWait(long wait, long now) {
        for (SinkPool<Object, ?> pool : pools) {
            wait = Math.min(wait, pool.nextDeadline() - now);
        }
        return wait;
    }

    /** Writes dead letters that sink workers handed over (records their destination refused). */
    void pumpDeadLetters() {
        if (deadLetters != null && deadLetters.pump() && deadLetterPool != null) {
            deadLetterPool.tick(System.nanoTime());
        }
    }

    /** Writes the dead letters handed over, if any. */
    void pumpHandedOver() {
        if (deadLetters != null && deadLetters.hasHandedOver()) {
            pumpDeadLetters();
        }
    }

    /** Writes the dead letters handed over, if any, and seals their batches at once: someone waits for them. */
    void pumpAndFlushHandedOver(long deadline) {
        if (deadLetters != null && deadLetters.hasHandedOver()) {
            pumpDeadLetters();
            if (deadLetterPool != null) {
                deadLetterPool.flushAll(deadline);
            }
        }
    }

    /**
     * The drain at shutdown: every open batch is sealed; with a dead-letter pool the output pools close first
     * and their refusals become dead letters before that pool is flushed; then every pool closes and the
     * drain waits until each is finished or {@code deadline} passes.
     *
     * @return whether every pool finished in time
     */
    boolean drain(long deadline) {
        flushAll(deadline);
        if (deadLetterPool != null) {
            // output sinks first: until they finish, they may refuse records that become dead letters
            for (SinkPool<Object, ?> pool : pools) {
                if (pool != deadLetterPool) {
                    pool.close();
                }
            }
            while (!outputsFinished() && System.nanoTime() < deadline) {
                settle();
                pumpDeadLetters();
                LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(5));
            }
            pumpDeadLetters();
            deadLetterPool.flushAll(deadline);
        }
        for (SinkPool<Object, ?> pool : pools) {
            pool.close();
        }
        while (!allFinished() && System.nanoTime() < deadline) {
            settle();
            pumpHandedOver();
            LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(5));
        }
        return allFinished();
    }

    /** Gives up the batches still unacknowledged, waiting for each pool's workers up to {@code cap} of the budget. */
    void abortAll(long stopDeadline, Duration cap) {
        for (SinkPool<Object, ?> pool : pools) {
            pool.abort(ShutdownSequence.remaining(stopDeadline, cap));
        }
    }

    /** Closes every writer, each within {@code cap} of what is left of the stop budget; a failure is logged. */
    void closeWriters(long stopDeadline, Duration cap) {
        for (SinkPool<Object, ?> pool : pools) {
            try {
                pool.closeWriter(ShutdownSequence.remaining(stopDeadline, cap));
            } catch (RuntimeException e) {
                LOG.warn("pipeline '{}': closing sink '{}' failed: {}", pipeline, pool.name(), e.getMessage());
            }
        }
    }

    /** Whether every pool wrote everything it was given. */
    boolean allFinished() {
        for (SinkPool<Object, ?> pool : pools) {
            if (!pool.finished()) {
                return false;
            }
        }
        return true;
    }

    private boolean outputsFinished() {
        for (SinkPool<Object, ?> pool : pools) {
            if (pool != deadLetterPool && !pool.finished()) {
                return false;
            }
        }
        return true;
    }
}
