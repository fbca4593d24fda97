package io.etl.core.internal.pool;

import io.etl.core.error.FatalException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The thread that drives a {@link ShardWindow} whose writer may block in {@code writeBatch}: it pumps the window,
 * and parks until a write completes, the pipeline thread hands over a batch, a backoff ends or, at the latest,
 * {@link #IDLE_PARK_NANOS} (the breaker's open state ends without a signal).
 */
final class ShardWorker<M> implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(ShardWorker.class);
    private static final long IDLE_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final SinkPool<?, M> pool;
    private final ShardWindow<M> window;
    private volatile Thread thread;

    ShardWorker(SinkPool<?, M> pool, ShardWindow<M> window) {
        this.pool = pool;
        this.window = window;
        window.drivenBy(false, this::wake);
    }

    void start(String threadName) {
        Thread t = new Thread(this, threadName);
        t.setDaemon(true);
        thread = t;
        t.start();
    }

    /** Whether the worker has stopped, or never started (the writer failed to open). */
    boolean finished() {
        return window.finished() || thread == null;
    }

    void join(long timeoutMillis) throws InterruptedException {
        Thread t = thread;
        if (t != null) {
            t.join(timeoutMillis);
        }
    }

    void wake() {
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    @Override
    public void run() {
        try {
            while (!window.aborting()) {
                long now = System.nanoTime();
                boolean progress = window.pump(now);
                if (window.drained()) {
                    break;
                }
                if (!progress) {
                    long park = Math.min(IDLE_PARK_NANOS, window.nextDeadline() - now);
                    if (park > 0) {
                        LockSupport.parkNanos(this, park);
                    }
                }
            }
        } catch (RuntimeException | Error e) {
            LOG.error("sink '{}' shard {} worker failed", pool.name(), window.index(), e);
            // whatever the window holds, nothing will ever settle it: the pipeline must fail, not stall
            pool.events()
                    .batchFailed(
                            null,
                            new FatalException(
                                    "sink '" + pool.name() + "' shard " + window.index() + ": the writer thread died: "
                                            + e,
                                    e));
        } finally {
            window.finish();
        }
    }
}
