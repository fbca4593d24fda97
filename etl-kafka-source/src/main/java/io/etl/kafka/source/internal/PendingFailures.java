package io.etl.kafka.source.internal;

/**
 * Failures a source meets where it cannot throw them, inside a rebalance callback or an asynchronous commit's
 * callback, kept until the next {@code poll} throws them. A callback failure comes first; the first one kept wins.
 */
final class PendingFailures {

    /** Thrown by the pipeline inside a rebalance callback. */
    private RuntimeException callback;
    /** An asynchronous commit failure that retrying cannot fix. */
    private RuntimeException commit;

    /** Keeps {@code e} unless a callback failure is kept already. */
    void callbackFailed(RuntimeException e) {
        if (callback == null) {
            callback = e;
        }
    }

    /** Whether a rebalance callback failed since the last {@link #throwIfAny}. */
    boolean hasCallbackFailure() {
        return callback != null;
    }

    void commitFailed(RuntimeException e) {
        commit = e;
    }

    /** Throws the kept failure, the callback's first, and forgets both. */
    void throwIfAny() {
        RuntimeException f = callback != null ? callback : commit;
        if (f != null) {
            callback = null;
            commit = null;
            throw f;
        }
    }
}
