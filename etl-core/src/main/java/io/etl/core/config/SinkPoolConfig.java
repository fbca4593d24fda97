package io.etl.core.config;

import io.etl.core.error.ErrorPolicy;
import jakarta.validation.Valid;
import org.hibernate.validator.constraints.Range;

/**
 * Settings every sink shares, written inside the sink's connector section
 * ({@code sinks.<name>.<connector>.shards}, {@code .batch}, ...).
 *
 * @param shards   parallel workers; records with the same key always use the same shard
 * @param inflight batches a shard may have written but not yet acknowledged
 * @param queue    sealed batches a shard may hold before the pipeline blocks and the source pauses
 * @param batch    when a batch is sealed
 * @param retry    retry of failed batches
 * @param breaker  circuit breaker per shard
 * @param onError  what to do with a record the encoder rejects (for example an oversized message)
 */
public record SinkPoolConfig(@Range(min = 1, max = 256) Integer shards,
                             @Range(min = 1, max = 1024) Integer inflight,
                             @Range(min = 1, max = 1024) Integer queue,
                             @Valid BatchConfig batch,
                             @Valid RetryConfig retry,
                             @Valid BreakerConfig breaker,
                             ErrorPolicy onError) {

    public static final int DEFAULT_SHARDS = 1;
    public static final int DEFAULT_INFLIGHT = 4;
    public static final int DEFAULT_QUEUE = 4;
    public static final ErrorPolicy DEFAULT_ON_ERROR = ErrorPolicy.SKIP;

    /** The keys this record owns inside a connector section. */
    public static final java.util.Set<String> KEYS =
            java.util.Set.of("shards", "inflight", "queue", "batch", "retry", "breaker", "on_error");

    public SinkPoolConfig {
        shards = shards == null ? DEFAULT_SHARDS : shards;
        inflight = inflight == null ? DEFAULT_INFLIGHT : inflight;
        queue = queue == null ? DEFAULT_QUEUE : queue;
        batch = batch == null ? BatchConfig.defaults() : batch;
        retry = retry == null ? RetryConfig.defaults() : retry;
        breaker = breaker == null ? BreakerConfig.defaults() : breaker;
        onError = onError == null ? DEFAULT_ON_ERROR : onError;
    }

    public static SinkPoolConfig defaults() {
        return new SinkPoolConfig(null, null, null, null, null, null, null);
    }

    public SinkPoolConfig withShards(int value) {
        return new SinkPoolConfig(value, inflight, queue, batch, retry, breaker, onError);
    }

    public SinkPoolConfig withInflight(int value) {
        return new SinkPoolConfig(shards, value, queue, batch, retry, breaker, onError);
    }

    public SinkPoolConfig withQueue(int value) {
        return new SinkPoolConfig(shards, inflight, value, batch, retry, breaker, onError);
    }

    public SinkPoolConfig withBatch(BatchConfig value) {
        return new SinkPoolConfig(shards, inflight, queue, value, retry, breaker, onError);
    }

    public SinkPoolConfig withRetry(RetryConfig value) {
        return new SinkPoolConfig(shards, inflight, queue, batch, value, breaker, onError);
    }

    public SinkPoolConfig withBreaker(BreakerConfig value) {
        return new SinkPoolConfig(shards, inflight, queue, batch, retry, value, onError);
    }

    public SinkPoolConfig withOnError(ErrorPolicy value) {
        return new SinkPoolConfig(shards, inflight, queue, batch, retry, breaker, value);
    }
}
