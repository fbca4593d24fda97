package io.etl.core.config;

import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Min;
import java.time.Duration;

/**
 * Retry of a whole batch after a retryable failure: the n-th retry waits
 * {@code min(max_backoff, initial_backoff * multiplier^(n-1))}, spread by {@code ± jitter}.
 *
 * @param initialBackoff wait before the first retry
 * @param maxBackoff     cap on any wait
 * @param multiplier     growth factor per attempt
 * @param jitter         random spread as a fraction of the wait (0 to 1)
 * @param maxAttempts    attempts before the failure turns fatal; 0 retries for ever
 */
public record RetryConfig(Duration initialBackoff, Duration maxBackoff,
                          @DecimalMin("1.0") Double multiplier,
                          @DecimalMin("0.0") @DecimalMax("1.0") Double jitter,
                          @Min(0) Integer maxAttempts) {

    public static final Duration DEFAULT_INITIAL_BACKOFF = Duration.ofMillis(100);
    public static final Duration DEFAULT_MAX_BACKOFF = Duration.ofSeconds(10);
    public static final double DEFAULT_MULTIPLIER = 2.0;
    public static final double DEFAULT_JITTER = 0.2;
    public static final int DEFAULT_MAX_ATTEMPTS = 0;

    public RetryConfig {
        initialBackoff = initialBackoff == null ? DEFAULT_INITIAL_BACKOFF : initialBackoff;
        maxBackoff = maxBackoff == null ? DEFAULT_MAX_BACKOFF : maxBackoff;
        multiplier = multiplier == null ? DEFAULT_MULTIPLIER : multiplier;
        jitter = jitter == null ? DEFAULT_JITTER : jitter;
        maxAttempts = maxAttempts == null ? DEFAULT_MAX_ATTEMPTS : maxAttempts;
    }

    public static RetryConfig defaults() {
        return new RetryConfig(null, null, null, null, null);
    }
}
