package io.etl.core.internal.pool;

import io.etl.core.error.FatalException;
import io.etl.core.error.RetryableException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The writing half of a sink shard: its bounded queue of sealed batches, the write window of at most
 * {@code inflight} unacknowledged attempts in order, retries and the circuit breaker. Its worker thread takes
 * batches from the queue and calls the writer. After a retryable failure it waits for the whole window, backs
 * off, and writes the failed batch and every later one again in their original order (go-back-N), so a key's
 * last write is always its newest value. The pipeline thread's half, {@link ShardBatcher}, hands batches over
 * through {@link #offer} and reads {@link #hasRoom()}; everything else runs on the worker.
 */
final class ShardWindow<M> implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(ShardWindow.class);
    private static final long IDLE_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final SinkPool<?, M> pool;
    private final int index;
    private final ArrayBlockingQueue<Batch<M>> queue;
    private final ArrayDeque<Attempt<M>> window = new ArrayDeque<>();
    private final ArrayDeque<Batch<M>> resend = new ArrayDeque<>();
    private final int inflight;
    private final CircuitBreaker breaker;
    private final Backoff backoff;

    private volatile Thread worker;
    private volatile boolean closing;
    private volatile boolean aborting;
    private volatile boolean finished;
    private volatile int windowSize;
    private volatile int resendSize;

    ShardWindow(SinkPool<?, M> pool, int index, CircuitBreaker breaker) {
        this.pool = pool;
        this.index = index;
        var config = pool.config();
        this.queue = new ArrayBlockingQueue<>(config.queue());
        this.inflight = config.inflight();
        this.breaker = breaker;
        this.backoff = new Backoff(config.retry());
    }

    // ---- pipeline thread ---------------------------------------------------------------------------------

    /** Queues a sealed batch if the queue has room; the caller wakes the worker once it queued what it could. */
    boolean offer(Batch<M> batch) {
        return queue.offer(batch);
    }

    /**
     * Whether a batch queued now would be written at once: nothing is queued, none waits for a retry, and fewer
     * than {@code inflight} are unacknowledged. Reads the queue before the window: the worker counts a batch into
     * the window before taking it.
     */
    boolean hasRoom() {
        return queue.isEmpty() && resendSize == 0 && windowSize < inflight;
    }

    /** Whether the worker thread has ended. */
    boolean ended() {
        return finished;
    }

    /** Whether the worker thread has ended or was told to stop now. */
    boolean endedOrAborting() {
        return finished || aborting;
    }

    // ---- lifecycle ---------------------------------------------------------------------------------------

    void start(String threadName) {
        Thread t = new Thread(this, threadName);
        t.setDaemon(true);
        worker = t;
        t.start();
    }

    /** No more batches will come: write what is queued, then stop. */
    void close() {
        closing = true;
        wake();
    }

    /** Stop now; what is not acknowledged is abandoned. */
    void abort() {
        aborting = true;
        wake();
    }

    /** Whether the worker has stopped, or never started (the writer failed to open). */
    boolean finished() {
        return finished || worker == null;
    }

    int inflightBatches() {
        return windowSize;
    }

    void join(long timeoutMillis) throws InterruptedException {
        Thread t = worker;
        if (t != null) {
            t.join(timeoutMillis);
        }
    }

    void wake() {
        Thread t = worker;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    // ---- worker thread -----------------------------------------------------------------------------------

    @Override
    public void run() {
        try {
            while (!aborting) {
                boolean progress = settleCompletedHeads();
                progress |= sendQueued();
                if (closing && window.isEmpty() && resend.isEmpty() && queue.isEmpty()) {
                    break;
                }
                if (!progress) {
                    LockSupport.parkNanos(this, IDLE_PARK_NANOS);
                }
            }
        } catch (RuntimeException | Error e) {
            LOG.error("sink '{}' shard {} worker failed", pool.name(), index, e);
            // whatever the window holds, nothing will ever settle it: the pipeline must fail, not stall
            pool.events()
                    .batchFailed(
                            null,
                            new FatalException(
                                    "sink '" + pool.name() + "' shard " + index + ": the writer thread died: " + e, e));
        } finally {
            abandonRest();
            finished = true;
        }
    }

    /** Sends batches waiting for a retry first, then queued ones, as far as window and breaker allow. */
    private boolean sendQueued() {
        boolean sent = false;
        while (window.size() < inflight && !aborting) {
            boolean retry = !resend.isEmpty();
            Batch<M> next = retry ? resend.peekFirst() : queue.peek();
            if (next == null || !breakerPermits()) {
                return sent;
            }
            windowSize = window.size() + 1; // before the batch leaves the queue: see windowHasRoom()
            if (retry) {
                resend.pollFirst();
                resendSize = resend.size();
            } else {
                queue.poll();
            }
            send(next);
            sent = true;
        }
        return sent;
    }

    private boolean breakerPermits() {
        return breaker == null || breaker.tryAcquirePermission();
    }

    private void send(Batch<M> batch) {
        batch.nextAttempt();
        CompletableFuture<Void> future;
        long start = System.nanoTime();
        try {
            future = pool.writer().writeBatch(batch);
            if (future == null) {
                future = CompletableFuture.failedFuture(new FatalException("sink writer returned no future"));
            }
        } catch (RuntimeException e) {
            future = CompletableFuture.failedFuture(e);
        }
        Thread self = Thread.currentThread();
        future.whenComplete((ok, err) -> LockSupport.unpark(self));
        window.addLast(new Attempt<>(batch, future, start));
        windowSize = window.size();
    }

    private boolean settleCompletedHeads() {
        boolean progress = false;
        Attempt<M> head;
        while ((head = window.peekFirst()) != null && head.future.isDone()) {
            Throwable error = errorOf(head.future);
            if (error == null) {
                window.pollFirst();
                windowSize = window.size();
                succeeded(head);
            } else if (isFatal(error) || !backoff.mayRetry(head.batch.attempt())) {
                window.pollFirst();
                windowSize = window.size();
                recordBreaker(head, error);
                failed(head.batch, error);
            } else {
                retryFrom(head, error);
            }
            progress = true;
        }
        return progress;
    }

    private void succeeded(Attempt<M> attempt) {
        recordBreaker(attempt, null);
        if (attempt.batch.acknowledge(pool.events(), pool.sink().errorPolicy())) {
            pool.metrics().acknowledged(attempt.batch, System.nanoTime() - attempt.startNanos);
            pool.events().acknowledged();
        } else {
            pool.metrics().rewritten(System.nanoTime() - attempt.startNanos);
        }
    }

    private void failed(Batch<M> batch, Throwable error) {
        FatalException fatal = error instanceof FatalException f
                ? f
                : new FatalException(
                        "sink '" + pool.name() + "' gave up on " + batch + " after " + batch.attempt() + " attempts: "
                                + error.getMessage(),
                        error);
        if (batch.fail(fatal)) {
            pool.metrics().fatal();
            LOG.error(
                    "sink '{}' shard {}: {} failed fatally; its partitions stop committing: {}",
                    pool.name(),
                    index,
                    batch,
                    fatal.getMessage());
            pool.events().batchFailed(batch, fatal);
        }
    }

    /**
     * Go-back-N: wait for every batch in the window, acknowledge what became durable, then write the failed
     * batch and every later batch again, in order, after a backoff.
     */
    private void retryFrom(Attempt<M> head, Throwable error) {
        List<Batch<M>> redo = new ArrayList<>(window.size());
        boolean afterFailure = false;
        while (!window.isEmpty()) {
            Attempt<M> a = window.pollFirst();
            Throwable e = awaitOutcome(a);
            if (aborting) {
                window.addFirst(a);
                windowSize = window.size();
                redo.forEach(this::abandon);
                return;
            }
            if (e == null) {
                succeeded(a);
                if (afterFailure) {
                    redo.add(a.batch);
                }
            } else if (isFatal(e) || !backoff.mayRetry(a.batch.attempt())) {
                recordBreaker(a, e);
                failed(a.batch, e);
            } else {
                recordBreaker(a, e);
                afterFailure = true;
                redo.add(a.batch);
            }
        }
        windowSize = 0;
        if (redo.isEmpty()) {
            return;
        }
        int attempt = redo.get(0).attempt();
        pool.metrics().retried();
        LOG.warn(
                "sink '{}' shard {}: {} failed, retrying {} batch(es) in order: {}",
                pool.name(),
                index,
                redo.get(0),
                redo.size(),
                rootMessage(error));
        pause(backoff.delayNanos(attempt));
        if (aborting) {
            redo.forEach(this::abandon);
            return;
        }
        // ahead of anything else, in their original order; sent as the window and the breaker allow
        for (int i = redo.size() - 1; i >= 0; i--) {
            resend.addFirst(redo.get(i));
        }
        resendSize = resend.size();
    }

    private Throwable awaitOutcome(Attempt<M> a) {
        while (!aborting) {
            try {
                a.future.get(50, TimeUnit.MILLISECONDS);
                return null;
            } catch (TimeoutException e) {
                // keep waiting, checking for abort
            } catch (ExecutionException e) {
                return e.getCause();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                aborting = true;
            }
        }
        return null;
    }

    private void pause(long nanos) {
        long deadline = System.nanoTime() + nanos;
        long left;
        while (!aborting && (left = deadline - System.nanoTime()) > 0) {
            LockSupport.parkNanos(this, left);
        }
    }

    private void recordBreaker(Attempt<M> attempt, Throwable error) {
        if (breaker == null) {
            return;
        }
        long took = System.nanoTime() - attempt.startNanos;
        if (error == null) {
            breaker.onSuccess(took, TimeUnit.NANOSECONDS);
        } else {
            breaker.onError(took, TimeUnit.NANOSECONDS, error);
        }
    }

    private void abandonRest() {
        int batches = 0;
        long records = 0;
        for (Attempt<M> a : window) {
            if (!a.batch.settled()) {
                batches++;
                records += a.batch.size();
            }
        }
        window.clear();
        windowSize = 0;
        for (Batch<M> r : resend) {
            batches++;
            records += r.size();
        }
        resend.clear();
        resendSize = 0;
        Batch<M> b;
        while ((b = queue.poll()) != null) {
            batches++;
            records += b.size();
        }
        if (batches > 0) {
            pool.metrics().abandoned(batches);
            pool.events().batchesAbandoned(pool.name(), index, batches, records);
        }
    }

    private void abandon(Batch<M> batch) {
        pool.metrics().abandoned(1);
        pool.events().batchesAbandoned(pool.name(), index, 1, batch.size());
    }

    private static Throwable errorOf(CompletableFuture<?> future) {
        try {
            future.join();
            return null;
        } catch (CompletionException | CancellationException e) {
            return e.getCause() != null ? e.getCause() : e;
        }
    }

    private static boolean isFatal(Throwable error) {
        return error instanceof FatalException;
    }

    private static String rootMessage(Throwable error) {
        Throwable t = error;
        while (t.getCause() != null && t.getCause() != t && !(t instanceof RetryableException)) {
            t = t.getCause();
        }
        return t.getClass().getSimpleName() + ": " + t.getMessage();
    }

    private record Attempt<M>(Batch<M> batch, CompletableFuture<Void> future, long startNanos) {}
}
