package io.etl.core.config;

import java.time.Duration;

/**
 * How source offsets are committed.
 *
 * @param interval         the shortest time between two commits while running: a commit is sent as soon as
 *                         a watermark moved and the previous commit completed, but never sooner than this
 *                         after the previous one was sent
 * @param drainTimeout     on shutdown, how long open batches may take to become durable
 * @param stalledFailAfter how long a partition may stay stuck behind a fatally failed batch before the
 *                         pipeline fails
 */
public record CheckpointConfig(Duration interval, Duration drainTimeout, Duration stalledFailAfter) {

    public static final Duration DEFAULT_INTERVAL = Duration.ofMillis(10);
    public static final Duration DEFAULT_DRAIN_TIMEOUT = Duration.ofSeconds(30);
    public static final Duration DEFAULT_STALLED_FAIL_AFTER = Duration.ofSeconds(10);

    public CheckpointConfig {
        interval = interval == null ? DEFAULT_INTERVAL : interval;
        drainTimeout = drainTimeout == null ? DEFAULT_DRAIN_TIMEOUT : drainTimeout;
        stalledFailAfter = stalledFailAfter == null ? DEFAULT_STALLED_FAIL_AFTER : stalledFailAfter;
    }

    public static CheckpointConfig defaults() {
        return new CheckpointConfig(null, null, null);
    }
}
