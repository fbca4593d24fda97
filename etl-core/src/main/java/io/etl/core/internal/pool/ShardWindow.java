package io.etl.core.internal.pool;

import io.etl.core.error.FatalException;
import io.etl.core.error.RetryableException;
import io.etl.core.sink.OpenWrite;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The writing half of a sink shard: its bounded queue of sealed batches, the write window of at most
 * {@code inflight} unacknowledged attempts in order, retries and the circuit breaker. It is a state machine that
 * never blocks: one thread, its <em>driver</em>, calls {@link #pump} to settle the attempts whose writes completed
 * (in order) and to write what the window, the breaker and a retry's backoff allow. The driver is the pipeline
 * thread itself when the sink's writer sends without blocking ({@link io.etl.core.sink.SinkWriter#sendsWithoutBlocking()}),
 * otherwise the shard's worker thread ({@link ShardWorker}).
 *
 * <p>After a retryable failure the window stops writing, settles every attempt still in it as it completes, backs
 * off, and writes the failed batch and every later one again in their original order (go-back-N), so a key's last
 * write is always its newest value. The pipeline thread's half, {@link ShardBatcher}, hands batches over through
 * {@link #offer} and reads {@link #hasRoom()}, which are safe from the pipeline thread while a worker drives.
 *
 * <p>When the pipeline thread drives and the writer takes messages as they come ({@link OpenWrite}), the batch being
 * filled may already be the window's newest attempt ({@link #openWrite()}): it takes each message as the batch does
 * ({@link #handOver}), holds a place in the window and joins it as an attempt once sealed ({@link #closeWrite}); a
 * go-back-N waits for it. Every call into the writer is made here.
 */
final class ShardWindow<M> {

    private static final Logger LOG = LoggerFactory.getLogger(ShardWindow.class);

    private final SinkPool<?, M> pool;
    private final int index;
    private final ArrayBlockingQueue<Batch<M>> queue;
    private final ArrayDeque<Attempt<M>> window = new ArrayDeque<>();
    private final ArrayDeque<Batch<M>> resend = new ArrayDeque<>();
    private final int inflight;
    private final CircuitBreaker breaker;
    private final Backoff backoff;

    /** Tells the driver that a write completed; set before the first write. */
    private BiConsumer<Object, Throwable> completed;
    /** Whether the pipeline thread drives this window (no worker thread). */
    private boolean drivenInline;

    /** The batches of a go-back-N being collected while the window settles; null when none is. */
    private List<Batch<M>> redo;
    /** The failure that started the go-back-N being collected. */
    private Throwable redoCause;
    /** When the batches waiting in {@link #resend} may be written (nanoTime); meaningful while backing off. */
    private long resendAtNanos;

    private boolean backingOff;
    /** The open batch's first attempt, which holds a place in the window; null when none has started. */
    private OpenWrite<M> openAttempt;
    /** The open attempt refused a message: the rest of the batch is handed over when it is sealed. */
    private boolean openAttemptFull;
    /** When that attempt started (nanoTime). */
    private long openAttemptStartNanos;

    private volatile boolean closing;
    private volatile boolean aborting;
    private volatile boolean finished;
    private volatile int windowSize;
    private volatile int resendSize;
    /** A go-back-N is being collected or backing off: nothing new is written. */
    private volatile boolean holding;

    ShardWindow(SinkPool<?, M> pool, int index, CircuitBreaker breaker) {
        this.pool = pool;
        this.index = index;
        var config = pool.config();
        this.queue = new ArrayBlockingQueue<>(config.queue());
        this.inflight = config.inflight();
        this.breaker = breaker;
        this.backoff = new Backoff(config.retry());
    }

    /**
     * Sets who drives this window before anything is written: {@code inline} for the pipeline thread, which then
     * learns of completed writes through {@code completed} (it may be parked), otherwise a worker thread woken by
     * it.
     */
    void drivenBy(boolean inline, Runnable completed) {
        this.drivenInline = inline;
        this.completed = (ok, error) -> completed.run();
    }

    boolean drivenInline() {
        return drivenInline;
    }

    int index() {
        return index;
    }

    // ---- the pipeline thread -----------------------------------------------------------------------------

    /** Queues a sealed batch if the queue has room; the caller tells the driver once it queued what it could. */
    boolean offer(Batch<M> batch) {
        return queue.offer(batch);
    }

    /**
     * Whether a batch queued now would be written at once: nothing is queued, none waits for a retry, no
     * go-back-N is under way, and fewer than {@code inflight} are unacknowledged. Reads the queue before the
     * window: the driver counts a batch into the window before taking it.
     */
    boolean hasRoom() {
        return queue.isEmpty() && resendSize == 0 && !holding && windowSize < inflight;
    }

    /** Whether the window has stopped for good. */
    boolean ended() {
        return finished;
    }

    /** Whether the window has stopped or was told to stop now. */
    boolean endedOrAborting() {
        return finished || aborting;
    }

    int inflightBatches() {
        return windowSize;
    }

    /** Whether a go-back-N is being collected or backs off: an open attempt must be sealed for it. */
    boolean holding() {
        return holding;
    }

    // ---- the pipeline thread, driving the window ---------------------------------------------------------------

    /**
     * Starts the first attempt of the batch the shard is about to fill, when the window would write that batch at
     * once and the writer takes messages as they come; returns whether it did. The attempt holds a place in the
     * window until {@link #closeWrite}. Only for a window the pipeline thread drives.
     */
    boolean openWrite() {
        if (!drivenInline
                || openAttempt != null
                || holding
                || aborting
                || closing
                || finished
                || window.size() >= inflight
                || !queue.isEmpty()
                || !resend.isEmpty()) {
            return false;
        }
        OpenWrite<M> write;
        try {
            write = pool.writer().openWrite(index);
        } catch (RuntimeException e) {
            write = null; // the batch is written whole once sealed, which reports the writer's trouble
        } catch (Error e) {
            pool.writerFailed(this, e);
            return false;
        }
        if (write == null) {
            return false;
        }
        if (!breakerPermits()) {
            return false; // nothing was sent yet: the batch waits in the queue once sealed, as any other
        }
        openAttempt = write;
        openAttemptFull = false;
        openAttemptStartNanos = System.nanoTime();
        windowSize = window.size() + 1;
        return true;
    }

    /** Whether the batch being filled is already the window's newest attempt ({@link #openWrite()}). */
    boolean hasOpenAttempt() {
        return openAttempt != null;
    }

    /**
     * Hands a message just added to the open batch to its open attempt, unless there is none or it stopped taking
     * messages; what it does not take is handed over when the batch is sealed.
     */
    void handOver(M message) {
        if (openAttempt == null || openAttemptFull) {
            return;
        }
        boolean taken;
        try {
            taken = openAttempt.add(message);
        } catch (RuntimeException e) {
            taken = false; // the batch is handed over once sealed, which reports what the writer has
        } catch (Error e) {
            taken = false;
            pool.writerFailed(this, e);
        }
        openAttemptFull = !taken;
    }

    /**
     * Whether the open attempt's batch should be sealed now rather than fill up: the window has room for another
     * attempt besides it, nothing else is in flight, or a go-back-N waits for it.
     */
    boolean openAttemptSealsNow() {
        return holding || window.isEmpty() || window.size() + 1 < inflight;
    }

    /** Whether no attempt but the open one is in flight. */
    boolean onlyOpenAttempt() {
        return window.isEmpty();
    }

    /** The open attempt's batch was sealed: the attempt joins the window, after every earlier one. */
    void closeWrite(Batch<M> batch) {
        OpenWrite<M> write = openAttempt;
        openAttempt = null;
        if (finished) {
            // stopped meanwhile: what was handed over is never acknowledged
            pool.metrics().abandoned(1);
            pool.events().batchesAbandoned(pool.name(), index, 1, batch.size());
            windowSize = window.size();
            return;
        }
        batch.nextAttempt();
        CompletableFuture<Void> future;
        try {
            future = write.close(batch);
        } catch (RuntimeException e) {
            future = CompletableFuture.failedFuture(e);
        } catch (Error e) {
            pool.writerFailed(this, e);
            return;
        }
        enter(batch, future, openAttemptStartNanos);
    }

    /** No more batches will come: what is queued is written, then the window is finished. */
    void close() {
        closing = true;
    }

    /** Stop now; what is not acknowledged is abandoned by the driver. */
    void abort() {
        aborting = true;
    }

    boolean closing() {
        return closing;
    }

    boolean aborting() {
        return aborting;
    }

    /** Whether the driver has stopped the window. */
    boolean finished() {
        return finished;
    }

    // ---- the driver ---------------------------------------------------------------------------------------

    /**
     * Settles the attempts that completed, in order, and writes what the window, the breaker and a backoff allow.
     * Never waits. Returns whether anything changed.
     */
    boolean pump(long nowNanos) {
        if (aborting || finished) {
            return false;
        }
        boolean progress = settleCompletedHeads(nowNanos);
        progress |= sendQueued(nowNanos);
        return progress;
    }

    /** Whether the window was closed and everything given to it is settled: the driver may finish it. */
    boolean drained() {
        return closing
                && openAttempt == null
                && window.isEmpty()
                && resend.isEmpty()
                && redo == null
                && queue.isEmpty();
    }

    /** Nanosecond time at which a backoff ends and the driver should pump again, or Long.MAX_VALUE. */
    long nextDeadline() {
        return backingOff ? resendAtNanos : Long.MAX_VALUE;
    }

    /** Counts what was never acknowledged as abandoned and marks the window finished. Driver only, once. */
    void finish() {
        if (finished) {
            return;
        }
        abandonRest();
        finished = true;
    }

    /** Sends batches waiting for a retry first, then queued ones, as far as window, backoff and breaker allow. */
    private boolean sendQueued(long nowNanos) {
        if (redo != null || openAttempt != null) {
            // an open attempt is the newest: nothing may be written before it has joined the window
            return false;
        }
        if (backingOff) {
            if (nowNanos - resendAtNanos < 0) {
                return false;
            }
            backingOff = false;
            holding = false;
        }
        boolean sent = false;
        while (window.size() < inflight && !aborting) {
            boolean retry = !resend.isEmpty();
            Batch<M> next = retry ? resend.peekFirst() : queue.peek();
            if (next == null || !breakerPermits()) {
                return sent;
            }
            windowSize = window.size() + 1; // before the batch leaves the queue: see hasRoom()
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
        } catch (RuntimeException e) {
            future = CompletableFuture.failedFuture(e);
        }
        enter(batch, future, start);
    }

    private void enter(Batch<M> batch, CompletableFuture<Void> written, long start) {
        CompletableFuture<Void> future = written != null
                ? written
                : CompletableFuture.failedFuture(new FatalException("sink writer returned no future"));
        if (!future.isDone()) {
            future.whenComplete(completed);
        }
        window.addLast(new Attempt<>(batch, future, start));
        windowSize = window.size();
    }

    private boolean settleCompletedHeads(long nowNanos) {
        boolean progress = false;
        Attempt<M> head;
        while ((head = window.peekFirst()) != null && head.future.isDone()) {
            window.pollFirst();
            windowSize = window.size();
            Throwable error = errorOf(head.future);
            if (error != null) {
                recordBreaker(head, error);
            }
            if (error == null) {
                succeeded(head);
                if (redo != null) {
                    // written after the failed one: written again after it, so its key's last write stays newest
                    redo.add(head.batch);
                }
            } else if (isFatal(error) || !backoff.mayRetry(head.batch.attempt())) {
                failed(head.batch, error);
            } else {
                if (redo == null) {
                    // go-back-N: settle the rest of the window first, then write this batch and every later one
                    redo = new ArrayList<>(window.size() + 1);
                    redoCause = error;
                    holding = true;
                }
                redo.add(head.batch);
            }
            progress = true;
        }
        if (redo != null && window.isEmpty() && openAttempt == null) {
            scheduleResend(nowNanos);
        }
        return progress;
    }

    private void succeeded(Attempt<M> attempt) {
        recordBreaker(attempt, null);
        if (attempt.batch.acknowledge(pool.events(), pool.sink().errorPolicy(), pool.holdsOnPipeline())) {
            pool.metrics().acknowledged(attempt.batch, System.nanoTime() - attempt.startNanos);
            if (!drivenInline) {
                pool.events().acknowledged(); // the pipeline thread did not see it: wake it
            }
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
     * Every attempt of the window is settled: the batches of the go-back-N wait in {@link #resend}, ahead of
     * anything else and in their original order, until the backoff has passed.
     */
    private void scheduleResend(long nowNanos) {
        List<Batch<M>> batches = redo;
        redo = null;
        if (batches.isEmpty()) {
            holding = false;
            return;
        }
        int attempt = batches.get(0).attempt();
        pool.metrics().retried();
        LOG.warn(
                "sink '{}' shard {}: {} failed, retrying {} batch(es) in order: {}",
                pool.name(),
                index,
                batches.get(0),
                batches.size(),
                rootMessage(redoCause));
        redoCause = null;
        for (int i = batches.size() - 1; i >= 0; i--) {
            resend.addFirst(batches.get(i));
        }
        resendSize = resend.size();
        resendAtNanos = nowNanos + backoff.delayNanos(attempt);
        backingOff = true;
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
        if (redo != null) {
            for (Batch<M> r : redo) {
                batches++;
                records += r.size();
            }
            redo = null;
        }
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
