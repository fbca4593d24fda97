package io.etl.core.config;

import io.etl.core.error.ConfigException;
import io.etl.core.error.ErrorPolicy;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import java.time.Duration;
import java.util.Objects;

/**
 * The settings of one asynchronous stage ({@code mapAsync}, {@code flatMapAsync}, {@code filterAsync},
 * {@code mapConcurrent}): in code with {@code RecordStream.settings(..)}, in YAML under
 * {@code pipeline.stages.<name>}.
 *
 * <p>Every key is optional and stays unset (null) when not given: a key set in YAML overrides the same key set in
 * code, and a key set in neither takes its default ({@code DEFAULT_*}; {@code attempts} and {@code backoff}
 * default to {@code pipeline.operator_attempts} and {@code pipeline.operator_backoff}, {@code on_error} to the
 * operator's {@code onError(..)}, then {@code pipeline.on_error}).
 *
 * <pre>{@code
 * .mapAsync("enrich", client::lookup)
 * .settings(StageConfig.custom().concurrency(200).ordering(AsyncOrdering.KEY).timeout(Duration.ofSeconds(2)).build())
 * }</pre>
 *
 * @param concurrency records in flight in the stage (calls started and not finished), per instance
 * @param ordering    what the stage keeps in order
 * @param timeout     how long one call may take before it counts as failed (a retryable failure); {@code 0s}
 *                    waits for ever
 * @param attempts    calls of one record while a call fails retryably ({@code RetryableException} or timeout)
 * @param backoff     wait before the first retry, doubled for each further one
 * @param rateLimit   calls started per second, per instance, at most; unset: no limit
 * @param queue       records the stage holds besides those in flight (waiting for a free slot, behind their key,
 *                    or, in partition order, behind a slower record); when they reach it the source pauses
 * @param keyQueue    in key order, records one key may hold waiting behind its call; when a key reaches it the
 *                    source pauses
 * @param stallAfter  a stage holding records that completed no call successfully for this long is reported
 *                    stalled by the health checks
 * @param onError     what a record whose call failed for good does
 */
public record StageConfig(
        @Min(1) @Max(100_000) Integer concurrency,
        AsyncOrdering ordering,
        Duration timeout,
        @Min(1) Integer attempts,
        Duration backoff,
        @Min(1) Integer rateLimit,
        @Min(0) Integer queue,
        @Min(1) Integer keyQueue,
        Duration stallAfter,
        ErrorPolicy onError) {

    public static final int DEFAULT_CONCURRENCY = 16;
    public static final AsyncOrdering DEFAULT_ORDERING = AsyncOrdering.KEY;
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);
    /** The default {@code queue} is this many times {@code concurrency}. */
    public static final int DEFAULT_QUEUE_PER_SLOT = 4;
    /** The default {@code key_queue} is {@code queue} divided by this (at least 1). */
    public static final int DEFAULT_KEY_QUEUE_DIVISOR = 4;

    public static final Duration DEFAULT_STALL_AFTER = Duration.ofSeconds(60);

    /**
     * The settings as given, null ones unset. YAML binding calls this constructor; code reads better with
     * {@link #custom()}.
     *
     * @throws ConfigException when a setting is out of range, naming each one
     */
    public StageConfig(
            Integer concurrency,
            AsyncOrdering ordering,
            Duration timeout,
            Integer attempts,
            Duration backoff,
            Integer rateLimit,
            Integer queue,
            Integer keyQueue,
            Duration stallAfter,
            ErrorPolicy onError) {
        this.concurrency = concurrency;
        this.ordering = ordering;
        this.timeout = timeout;
        this.attempts = attempts;
        this.backoff = backoff;
        this.rateLimit = rateLimit;
        this.queue = queue;
        this.keyQueue = keyQueue;
        this.stallAfter = stallAfter;
        this.onError = onError;
        ConfigValidation.checkConstructed(this);
    }

    /** No setting given: every key at its default. */
    public static StageConfig unset() {
        return new StageConfig(null, null, null, null, null, null, null, null, null, null);
    }

    /** A builder with nothing set. */
    public static Builder custom() {
        return new Builder(unset());
    }

    /** A builder starting from {@code base}. */
    public static Builder from(StageConfig base) {
        return new Builder(Objects.requireNonNull(base, "base"));
    }

    /** These settings, each key that {@code override} sets replaced by its value there. */
    public StageConfig overriddenBy(StageConfig override) {
        if (override == null) {
            return this;
        }
        return new StageConfig(
                pick(override.concurrency, concurrency),
                pick(override.ordering, ordering),
                pick(override.timeout, timeout),
                pick(override.attempts, attempts),
                pick(override.backoff, backoff),
                pick(override.rateLimit, rateLimit),
                pick(override.queue, queue),
                pick(override.keyQueue, keyQueue),
                pick(override.stallAfter, stallAfter),
                pick(override.onError, onError));
    }

    private static <V> V pick(V first, V second) {
        return first != null ? first : second;
    }

    /**
     * Builds a {@link StageConfig} in code; each setter rejects a value out of range at once, with the message YAML
     * validation gives.
     */
    public static final class Builder {
        private Integer concurrency;
        private AsyncOrdering ordering;
        private Duration timeout;
        private Integer attempts;
        private Duration backoff;
        private Integer rateLimit;
        private Integer queue;
        private Integer keyQueue;
        private Duration stallAfter;
        private ErrorPolicy onError;

        private Builder(StageConfig base) {
            concurrency = base.concurrency();
            ordering = base.ordering();
            timeout = base.timeout();
            attempts = base.attempts();
            backoff = base.backoff();
            rateLimit = base.rateLimit();
            queue = base.queue();
            keyQueue = base.keyQueue();
            stallAfter = base.stallAfter();
            onError = base.onError();
        }

        /** Records in flight, 1 to 100000; default {@value StageConfig#DEFAULT_CONCURRENCY}. */
        public Builder concurrency(int value) {
            concurrency = ConfigValidation.checkValue(StageConfig.class, "concurrency", value);
            return this;
        }

        /** What the stage keeps in order; default {@code KEY}. */
        public Builder ordering(AsyncOrdering value) {
            ordering = ConfigValidation.requireNonNull("ordering", value);
            return this;
        }

        /** Longest call, zero (none) or more; default 30s. */
        public Builder timeout(Duration value) {
            timeout = ConfigValidation.checkDuration("timeout", value);
            return this;
        }

        /** Calls of one record while they fail retryably, at least 1; default {@code pipeline.operator_attempts}. */
        public Builder attempts(int value) {
            attempts = ConfigValidation.checkValue(StageConfig.class, "attempts", value);
            return this;
        }

        /** Wait before the first retry, zero or more; default {@code pipeline.operator_backoff}. */
        public Builder backoff(Duration value) {
            backoff = ConfigValidation.checkDuration("backoff", value);
            return this;
        }

        /** Calls started per second at most, at least 1; default no limit. */
        public Builder rateLimit(int value) {
            rateLimit = ConfigValidation.checkValue(StageConfig.class, "rateLimit", value);
            return this;
        }

        /** Records held besides those in flight, zero or more; default 4 × {@code concurrency}. */
        public Builder queue(int value) {
            queue = ConfigValidation.checkValue(StageConfig.class, "queue", value);
            return this;
        }

        /** Records one key may hold waiting, at least 1; default {@code queue} ÷ 4. */
        public Builder keyQueue(int value) {
            keyQueue = ConfigValidation.checkValue(StageConfig.class, "keyQueue", value);
            return this;
        }

        /** How long without a successful call before the stage is reported stalled; default 60s. */
        public Builder stallAfter(Duration value) {
            stallAfter = ConfigValidation.checkDuration("stallAfter", value);
            return this;
        }

        /** What a record whose call failed for good does; default the operator's policy. */
        public Builder onError(ErrorPolicy value) {
            onError = ConfigValidation.requireNonNull("onError", value);
            return this;
        }

        /** The settings. */
        public StageConfig build() {
            return new StageConfig(
                    concurrency, ordering, timeout, attempts, backoff, rateLimit, queue, keyQueue, stallAfter, onError);
        }
    }
}
