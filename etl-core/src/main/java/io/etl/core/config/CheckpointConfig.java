package io.etl.core.config;

import io.etl.core.error.ConfigException;
import jakarta.validation.constraints.Min;
import java.time.Duration;
import java.util.Objects;

/**
 * How source offsets are committed.
 *
 * <p>In code, build one with {@link #custom()} or {@link #from(CheckpointConfig)}:
 * {@code CheckpointConfig.custom().interval(Duration.ofMillis(100)).build()}. However it is built, an
 * instance holds only values that YAML validation accepts: its constructor checks them.
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
public record CheckpointConfig(
        Duration interval,
        Duration drainTimeout,
        Duration stalledFailAfter,
        @Min(1) Integer maxPendingRecords) {

    public static final Duration DEFAULT_INTERVAL = Duration.ofMillis(10);
    /**
     * The default with {@code pipeline.delivery: exactly_once}, where each checkpoint is a transaction: Kafka
     * Streams' exactly-once commit interval.
     */
    public static final Duration DEFAULT_EXACTLY_ONCE_INTERVAL = Duration.ofMillis(100);

    public static final Duration DEFAULT_DRAIN_TIMEOUT = Duration.ofSeconds(30);
    public static final Duration DEFAULT_STALLED_FAIL_AFTER = Duration.ofSeconds(10);
    public static final int DEFAULT_MAX_PENDING_RECORDS = 500_000;

    /**
     * The settings, each null one at its default. YAML binding calls this constructor; code reads better with
     * {@link #custom()}.
     *
     * @throws ConfigException when a setting is out of range, naming each one
     */
    public CheckpointConfig(
            Duration interval, Duration drainTimeout, Duration stalledFailAfter, Integer maxPendingRecords) {
        this.interval = interval == null ? DEFAULT_INTERVAL : interval;
        this.drainTimeout = drainTimeout == null ? DEFAULT_DRAIN_TIMEOUT : drainTimeout;
        this.stalledFailAfter = stalledFailAfter == null ? DEFAULT_STALLED_FAIL_AFTER : stalledFailAfter;
        this.maxPendingRecords = maxPendingRecords == null ? DEFAULT_MAX_PENDING_RECORDS : maxPendingRecords;
        ConfigValidation.checkConstructed(this);
    }

    /** Every setting at its default. */
    public static CheckpointConfig defaults() {
        return new CheckpointConfig(null, null, null, null);
    }

    /** {@code from(this).maxPendingRecords(value).build()}. */
    public CheckpointConfig withMaxPendingRecords(int value) {
        return from(this).maxPendingRecords(value).build();
    }

    /** A builder starting from the defaults. */
    public static Builder custom() {
        return new Builder(defaults());
    }

    /** A builder starting from {@code base}. */
    public static Builder from(CheckpointConfig base) {
        return new Builder(Objects.requireNonNull(base, "base"));
    }

    /**
     * Builds a {@link CheckpointConfig} in code; each setter rejects a value out of range at once, with the
     * message YAML validation gives, and {@link #build()} checks the whole.
     */
    public static final class Builder {
        private Duration interval;
        private Duration drainTimeout;
        private Duration stalledFailAfter;
        private int maxPendingRecords;

        private Builder(CheckpointConfig base) {
            interval = base.interval();
            drainTimeout = base.drainTimeout();
            stalledFailAfter = base.stalledFailAfter();
            maxPendingRecords = base.maxPendingRecords();
        }

        /** Shortest time between two commits, zero or more; default 10ms. */
        public Builder interval(Duration value) {
            interval = ConfigValidation.checkDuration("interval", value);
            return this;
        }

        /** How long open batches may take to become durable on shutdown; default 30s. */
        public Builder drainTimeout(Duration value) {
            drainTimeout = ConfigValidation.checkDuration("drainTimeout", value);
            return this;
        }

        /** How long a partition may stay stuck behind a fatally failed batch; default 10s. */
        public Builder stalledFailAfter(Duration value) {
            stalledFailAfter = ConfigValidation.checkDuration("stalledFailAfter", value);
            return this;
        }

        /** Records tracked as not yet committable before the source pauses, at least 1; default 500000. */
        public Builder maxPendingRecords(int value) {
            maxPendingRecords = ConfigValidation.checkValue(CheckpointConfig.class, "maxPendingRecords", value);
            return this;
        }

        /** The settings; the constructor checks the whole as YAML validation does. */
        public CheckpointConfig build() {
            return new CheckpointConfig(interval, drainTimeout, stalledFailAfter, maxPendingRecords);
        }
    }
}
