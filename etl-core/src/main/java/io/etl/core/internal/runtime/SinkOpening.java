package io.etl.core.internal.runtime;

import io.etl.core.checkpoint.RunContext;
import io.etl.core.internal.pool.SinkPool;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.slf4j.MDC;

/**
 * Opens the sinks of a pipeline side by side, in the background. Opening a writer may connect to brokers, check
 * topics and warm up a client; done one after another these waits add up, done together they overlap (and
 * connectors that share a check or a client between the sinks of a run share it while it is in flight), and the
 * caller may open the source meanwhile. {@link #await()} waits for every sink, so when one fails the pipeline knows
 * which writers are open and closes them; the failure reported is that of the first failing sink in declaration
 * order.
 *
 * <pre>{@code
 * SinkOpening sinks = SinkOpening.start(pools, "orders", run, registry);
 * source.open(context);         // overlaps with the sinks' opening
 * sinks.await();                // throws the first sink's failure
 * }</pre>
 */
final class SinkOpening {

    /** At most this many sinks open at a time. */
    static final int MAX_PARALLEL = 8;

    private final ExecutorService opener;
    private final List<Future<?>> opening = new ArrayList<>();

    private SinkOpening(ExecutorService opener) {
        this.opener = opener;
    }

    /** Starts opening every sink of {@code run} on background threads; call {@link #await()} once. */
    static SinkOpening start(List<SinkPool<Object, ?>> pools, String pipeline, RunContext run, MeterRegistry registry) {
        ExecutorService opener = Executors.newFixedThreadPool(Math.max(1, Math.min(MAX_PARALLEL, pools.size())), r -> {
            Thread t = new Thread(r, "etl-" + pipeline + "-open");
            t.setDaemon(true);
            return t;
        });
        SinkOpening sinks = new SinkOpening(opener);
        // the opening threads log as the caller does (its MDC names the pipeline)
        Map<String, String> mdc = MDC.getCopyOfContextMap();
        try {
            for (SinkPool<Object, ?> pool : pools) {
                sinks.opening.add(opener.submit(() -> {
                    if (mdc != null) {
                        MDC.setContextMap(mdc);
                    }
                    try {
                        pool.start(pipeline, run, registry);
                    } finally {
                        MDC.clear();
                    }
                }));
            }
        } finally {
            opener.shutdown(); // the submitted openings still run; the threads end with them
        }
        return sinks;
    }

    /**
     * Stops the opening: sinks that have not begun to open never do, and the threads opening the others are
     * interrupted. {@link #await()} still waits for those, so that the pipeline knows which writers opened.
     */
    void cancel() {
        for (Runnable notStarted : opener.shutdownNow()) {
            if (notStarted instanceof Future<?> future) {
                future.cancel(false);
            }
        }
    }

    /**
     * Waits until every sink has opened, failed or was cancelled, even when the calling thread is interrupted
     * (the interrupt is kept); throws the first failure in declaration order.
     */
    void await() {
        RuntimeException first = null;
        for (Future<?> future : opening) {
            RuntimeException failure = outcome(future);
            if (failure != null && first == null) {
                first = failure;
            } else if (failure != null) {
                first.addSuppressed(failure);
            }
        }
        if (first != null) {
            throw first;
        }
    }

    private static RuntimeException outcome(Future<?> future) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    future.get();
                    return null;
                } catch (InterruptedException e) {
                    // a stop cancels the opening: the sink's own thread was interrupted too and ends soon
                    interrupted = true;
                } catch (CancellationException e) {
                    return new IllegalStateException("not opened: the start was stopped", e);
                } catch (ExecutionException e) {
                    Throwable cause = e.getCause();
                    if (cause instanceof RuntimeException runtime) {
                        return runtime;
                    }
                    if (cause instanceof Error error) {
                        throw error;
                    }
                    return new IllegalStateException(cause);
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
