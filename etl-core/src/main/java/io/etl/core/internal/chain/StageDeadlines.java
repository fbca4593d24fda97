package io.etl.core.internal.chain;

import java.util.ArrayDeque;

/**
 * The timeouts of one asynchronous stage's calls. Every call of a stage has the same timeout and starts on the
 * pipeline thread, so deadlines arrive in order: a queue whose head is the next to expire replaces a timer task
 * per call (and the lock and wake-ups a shared timer costs on every call and every completion). The pipeline
 * thread looks at the head between records and at least once a millisecond while calls are in flight
 * ({@link AsyncStages#capWait}). Pipeline thread only.
 */
final class StageDeadlines {

    /** Above this many entries per slot, completed calls are swept out of the queue rather than waiting their turn. */
    private static final int SWEEP_FACTOR = 4;

    private final ArrayDeque<AsyncAttempt> attempts = new ArrayDeque<>();
    private final int sweepAbove;

    /** @param concurrency the stage's calls in flight at most */
    StageDeadlines(int concurrency) {
        this.sweepAbove = SWEEP_FACTOR * concurrency + 64;
    }

    /** A call started: it times out at its deadline unless it completes first. */
    void started(AsyncAttempt attempt) {
        attempts.addLast(attempt);
        if (attempts.size() > sweepAbove) {
            // a call far slower than those after it holds the head: do not let finished calls pile up behind it
            attempts.removeIf(AsyncAttempt::get);
        }
    }

    /** Times out every call whose deadline passed at {@code nowNanos}; forgets those that completed meanwhile. */
    void expire(long nowNanos) {
        AsyncAttempt head;
        while ((head = attempts.peekFirst()) != null) {
            if (head.get()) {
                attempts.pollFirst();
            } else if (nowNanos - head.deadlineNanos >= 0) {
                attempts.pollFirst();
                head.expire();
            } else {
                return;
            }
        }
    }

    /** Calls whose timeout is still watched (completed ones may be among them until they reach the head). */
    int size() {
        return attempts.size();
    }
}
