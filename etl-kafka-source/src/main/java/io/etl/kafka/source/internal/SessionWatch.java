package io.etl.kafka.source.internal;

import java.time.Duration;

/**
 * Sees when nothing ran on a consumer for longer than its session timeout (the JVM was frozen, stopped or
 * starved, heartbeats included), so that the group may have handed its partitions to another member. It
 * measures the time between polls, less the time spent in rebalance callbacks, and stays "away" until the
 * group has called back or, failing that, one more session has passed since a rejoin was asked for. Times are
 * monotonic nanoseconds from the caller's clock.
 */
final class SessionWatch {

    private final long sessionNanos;
    private final long thresholdNanos;
    /** When the last poll returned, and the time spent in rebalance callbacks since. */
    private long lastPollNanos;

    private long callbackNanos;
    /** How long nothing ran, when that was longer than the session and the group has not settled since. */
    private long awayNanos;
    /** When a rejoin was asked for after being away; records are refused until the group settles or then + session. */
    private long rejoinAskedNanos;

    /**
     * @param session     the group's session timeout
     * @param pollTimeout the source's poll timeout: a gap between polls longer than both is being away
     */
    SessionWatch(Duration session, Duration pollTimeout) {
        this.sessionNanos = session.toNanos();
        this.thresholdNanos = session.plus(pollTimeout).toNanos();
    }

    /**
     * Called when a poll returned at {@code now}.
     *
     * @param detect whether a long gap counts (not while closing, nor when the broker owns the session)
     */
    void polled(long now, boolean detect) {
        long away = lastPollNanos == 0 ? 0 : now - lastPollNanos - callbackNanos;
        lastPollNanos = now;
        callbackNanos = 0;
        if (away > thresholdNanos && detect) {
            awayNanos = away;
            rejoinAskedNanos = 0;
        }
        if (awayNanos > 0 && rejoinAskedNanos != 0 && now - rejoinAskedNanos > sessionNanos) {
            // the group never called back: stop waiting for it rather than stall
            awayNanos = 0;
        }
    }

    /** Whether records fetched now must not be processed before the group has settled. */
    boolean away() {
        return awayNanos > 0;
    }

    long awayMillis() {
        return awayNanos / 1_000_000;
    }

    /** Records that a rejoin was asked for at {@code now}; false when one already was since being away. */
    boolean askRejoin(long now) {
        if (rejoinAskedNanos != 0) {
            return false;
        }
        rejoinAskedNanos = now;
        return true;
    }

    /** The group called back: what this member owns is settled since it was away. */
    void settled() {
        awayNanos = 0;
        rejoinAskedNanos = 0;
    }

    /** Time spent inside a rebalance callback, which is not being away. */
    void inCallback(long nanos) {
        callbackNanos += nanos;
    }
}
