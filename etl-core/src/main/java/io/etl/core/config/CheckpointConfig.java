package io.etl.core.config;

import jakarta.validation.constraints.Min;
import java.time.Duration;

/**
 * How source offsets are committed.
 *
 * @param interval          the shortest time between two commits while running: a commit is sent as soon
 *                          as a watermark moved and the previous commit completed, but never sooner than
 *                          this after the previous one was sent
 * @param drainTimeout      on shutdown, how long open batches may take to become durable
 * @param stalledFailAfter  how long a partition may stay stuck behind a fatally failed batch before the
 *                          pipeline fails
 * @param maxPendingRecords records the checkpointer may track as not yet committable (behind a slow or
 *                          failed record, done records wait too) before the source pauses
 */
public record CheckpointConfig(Duration interval, Duration drainTimeout, Duration stalledFailAfter,
                               @Min(1) Integer maxPendingRecords) {

    public static final Duration DEFAULT_INTERVAL = Duration.ofMillis(10);
    public static final Duration DEFAULT_DRAIN_TIMEOUT = Duration.ofSeconds(30);
    public static final Duration DEFAULT_STALLED_FAIL_AFTER = Duration.ofSeconds(10);
    public static final int DEFAULT_MAX_PENDING_RECORDS = 500_000;

    public CheckpointConfig {
        interval = interval == null ? DEFAULT_INTERVAL : interval;
        drainTimeout = drainTimeout == null ? DEFAULT_DRAIN_TIMEOUT : drainTimeout;
        stalledFailAfter = stalledFailAfter == null ? DEFAULT_STALLED_FAIL_AFTER : stalledFailAfter;
        maxPendingRecords = maxPendingRecords == null ? DEFAULT_MAX_PENDING_RECORDS : maxPendingRecords;
    }

    /** Settings with the default {@code max_pending_records}. */
    public CheckpointConfig(Duration interval, Duration drainTimeout, Duration stalledFailAfter) {
        this(interval, drainTimeout, stalledFailAfter, null);
    }

    public static CheckpointConfig defaults() {
        return new CheckpointConfig(null, null, null, null);
    }

    /** A copy with another {@code max_pending_records}. */
    public CheckpointConfig withMaxPendingRecords(int value) {
        return new CheckpointConfig(interval, drainTimeout, stalledFailAfter, value);
    }
}
