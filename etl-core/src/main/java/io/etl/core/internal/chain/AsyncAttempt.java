package io.etl.core.internal.chain;

import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;

/**
 * One call of an asynchronous stage for one value. The first of its outcome (the call's result or failure, or its
 * timeout) wins; it is then handed to the pipeline thread. The call completes on any thread; the timeout is
 * found overdue by the pipeline thread ({@link StageDeadlines}).
 */
final class AsyncAttempt extends AtomicBoolean implements AsyncEvent, BiConsumer<Object, Throwable> {

    private final AsyncNode node;
    final AsyncCall call;
    final long startNanos;
    private final Duration timeout;
    /** When the call times out ({@link System#nanoTime()}); meaningful only with a timeout. */
    final long deadlineNanos;

    /** The running task of a blocking call, interrupted on timeout; null for a call that returned a stage. */
    volatile Future<?> task;
    /** The stage a call returned, cancelled on timeout; null for a blocking call. */
    volatile CompletionStage<?> stage;

    private Object result;
    private Throwable error;
    private boolean timedOut;
    private long endNanos;

    AsyncAttempt(AsyncNode node, AsyncCall call, Duration timeout) {
        this.node = node;
        this.call = call;
        this.timeout = timeout;
        this.startNanos = System.nanoTime();
        this.deadlineNanos = startNanos + timeout.toNanos();
    }

    /** The call completed (normally when {@code failure} is null). */
    @Override
    public void accept(Object value, Throwable failure) {
        if (compareAndSet(false, true)) {
            result = value;
            error = failure;
            endNanos = System.nanoTime();
            node.post(this);
        }
    }

    /** The call is overdue: it times out, unless it completed meanwhile. Pipeline thread. */
    void expire() {
        if (compareAndSet(false, true)) {
            timedOut = true;
            endNanos = System.nanoTime();
            error = new TimeoutException("call of stage '" + node.name() + "' took longer than " + timeout);
            Future<?> f = task;
            if (f != null) {
                f.cancel(true);
            }
            CompletionStage<?> s = stage;
            if (s != null) {
                try {
                    s.toCompletableFuture().cancel(true);
                } catch (RuntimeException ignored) {
                    // a stage that cannot be cancelled (or converted) runs on; its result is ignored
                }
            }
            node.post(this);
        }
    }

    @Override
    public void handle() {
        node.completed(this);
    }

    Object result() {
        return result;
    }

    Throwable error() {
        return error;
    }

    boolean timedOut() {
        return timedOut;
    }

    long nanos() {
        return endNanos - startNanos;
    }
}
