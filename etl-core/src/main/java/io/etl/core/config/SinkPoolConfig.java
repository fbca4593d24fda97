package io.etl.core.config;

import io.etl.core.error.ConfigException;
import io.etl.core.error.ErrorPolicy;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import java.util.Objects;
import java.util.Set;

/**
 * Settings every sink shares, written inside the sink's connector section
 * ({@code sinks.<name>.<connector>.shards}, {@code .batch}, ...).
 *
 * <p>In code, build one with {@link #custom()} or {@link #from(SinkPoolConfig)}:
 * {@code SinkPoolConfig.custom().shards(4).build()}. However it is built, an instance holds only values that
 * YAML validation accepts: its constructor checks them.
 *
 * @param shards   parallel workers; records with the same key always use the same shard
 * @param inflight batches a shard may have written but not yet acknowledged
 * @param queue    sealed batches a shard may hold before the pipeline blocks and the source pauses
 * @param batch    when a batch is sealed
 * @param retry    retry of failed batches
 * @param breaker  circuit breaker per shard
 * @param onError  what to do with a record the encoder rejects (for example an oversized message)
 */
public record SinkPoolConfig(
        @Min(value = 1, message = BETWEEN_1_AND_256) @Max(value = 256, message = BETWEEN_1_AND_256)
        Integer shards,

        @Min(value = 1, message = BETWEEN_1_AND_1024) @Max(value = 1024, message = BETWEEN_1_AND_1024)
        Integer inflight,

        @Min(value = 1, message = BETWEEN_1_AND_1024) @Max(value = 1024, message = BETWEEN_1_AND_1024)
        Integer queue,

        @Valid BatchConfig batch,
        @Valid RetryConfig retry,
        @Valid BreakerConfig breaker,
        ErrorPolicy onError) {

    public static final int DEFAULT_SHARDS = 1;
    public static final int DEFAULT_INFLIGHT = 4;
    public static final int DEFAULT_QUEUE = 4;
    public static final ErrorPolicy DEFAULT_ON_ERROR = ErrorPolicy.SKIP;

    private static final String BETWEEN_1_AND_256 = "must be between 1 and 256";
    private static final String BETWEEN_1_AND_1024 = "must be between 1 and 1024";

    /** The keys this record owns inside a connector section. */
    public static final Set<String> KEYS =
            Set.of("shards", "inflight", "queue", "batch", "retry", "breaker", "on_error");

    /**
     * The settings, each null one at its default. YAML binding calls this constructor; code reads better with
     * {@link #custom()}.
     *
     * @throws ConfigException when a setting is out of range, naming each one
     */
    public SinkPoolConfig(
            Integer shards,
            Integer inflight,
            Integer queue,
            BatchConfig batch,
            RetryConfig retry,
            BreakerConfig breaker,
            ErrorPolicy onError) {
        this.shards = shards == null ? DEFAULT_SHARDS : shards;
        this.inflight = inflight == null ? DEFAULT_INFLIGHT : inflight;
        this.queue = queue == null ? DEFAULT_QUEUE : queue;
        this.batch = batch == null ? BatchConfig.defaults() : batch;
        this.retry = retry == null ? RetryConfig.defaults() : retry;
        this.breaker = breaker == null ? BreakerConfig.defaults() : breaker;
        this.onError = onError == null ? DEFAULT_ON_ERROR : onError;
        ConfigValidation.checkConstructed(this);
    }

    /** Every setting at its default. */
    public static SinkPoolConfig defaults() {
        return new SinkPoolConfig(null, null, null, null, null, null, null);
    }

    /** {@code from(this).shards(value).build()}. */
    public SinkPoolConfig withShards(int value) {
        return from(this).shards(value).build();
    }

    /** {@code from(this).inflight(value).build()}. */
    public SinkPoolConfig withInflight(int value) {
        return from(this).inflight(value).build();
    }

    /** {@code from(this).queue(value).build()}. */
    public SinkPoolConfig withQueue(int value) {
        return from(this).queue(value).build();
    }

    /** {@code from(this).batch(value).build()}. */
    public SinkPoolConfig withBatch(BatchConfig value) {
        return from(this).batch(value).build();
    }

    /** {@code from(this).retry(value).build()}. */
    public SinkPoolConfig withRetry(RetryConfig value) {
        return from(this).retry(value).build();
    }

    /** {@code from(this).breaker(value).build()}. */
    public SinkPoolConfig withBreaker(BreakerConfig value) {
        return from(this).breaker(value).build();
    }

    /** {@code from(this).onError(value).build()}. */
    public SinkPoolConfig withOnError(ErrorPolicy value) {
        return from(this).onError(value).build();
    }

    /** A builder starting from the defaults. */
    public static Builder custom() {
        return new Builder(defaults());
    }

    /** A builder starting from {@code base}. */
    public static Builder from(SinkPoolConfig base) {
        return new Builder(Objects.requireNonNull(base, "base"));
    }

    /**
     * Builds a {@link SinkPoolConfig} in code; each setter rejects a value out of range at once, with the
     * message YAML validation gives, and {@link #build()} checks the whole.
     */
    public static final class Builder {

        private int shards;
        private int inflight;
        private int queue;
        private BatchConfig batch;
        private RetryConfig retry;
        private BreakerConfig breaker;
        private ErrorPolicy onError;

        private Builder(SinkPoolConfig base) {
            shards = base.shards();
            inflight = base.inflight();
            queue = base.queue();
            batch = base.batch();
            retry = base.retry();
            breaker = base.breaker();
            onError = base.onError();
        }

        /** Parallel workers, 1 to 256; default {@value SinkPoolConfig#DEFAULT_SHARDS}. */
        public Builder shards(int value) {
            shards = ConfigValidation.checkValue(SinkPoolConfig.class, "shards", value);
            return this;
        }

        /** Unacknowledged batches per shard, 1 to 1024; default {@value SinkPoolConfig#DEFAULT_INFLIGHT}. */
        public Builder inflight(int value) {
            inflight = ConfigValidation.checkValue(SinkPoolConfig.class, "inflight", value);
            return this;
        }

        /** Sealed batches a shard may hold, 1 to 1024; default {@value SinkPoolConfig#DEFAULT_QUEUE}. */
        public Builder queue(int value) {
            queue = ConfigValidation.checkValue(SinkPoolConfig.class, "queue", value);
            return this;
        }

        /** When a batch is sealed. */
        public Builder batch(BatchConfig value) {
            batch = ConfigValidation.requireNonNull("batch", value);
            return this;
        }

        /** Retry of failed batches. */
        public Builder retry(RetryConfig value) {
            retry = ConfigValidation.requireNonNull("retry", value);
            return this;
        }

        /** The circuit breaker of each shard. */
        public Builder breaker(BreakerConfig value) {
            breaker = ConfigValidation.requireNonNull("breaker", value);
            return this;
        }

        /** What a record the encoder rejects does; default {@code SKIP}. */
        public Builder onError(ErrorPolicy value) {
            onError = ConfigValidation.checkValue(SinkPoolConfig.class, "onError", value);
            return this;
        }

        /** The settings; the constructor checks the whole as YAML validation does. */
        public SinkPoolConfig build() {
            return new SinkPoolConfig(shards, inflight, queue, batch, retry, breaker, onError);
        }
    }
}
