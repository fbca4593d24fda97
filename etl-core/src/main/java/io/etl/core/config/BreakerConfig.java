package io.etl.core.config;

import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Min;
import java.time.Duration;

/**
 * The circuit breaker of each sink shard. It opens when at least {@code failure_rate_threshold} percent
 * of the last {@code sliding_window} batch writes failed (once {@code minimum_calls} were made); while
 * open the shard writes nothing for {@code open_wait}, then tries one batch.
 *
 * @param enabled              whether the breaker is used at all
 * @param failureRateThreshold percentage of failed writes that opens it
 * @param slidingWindow        number of recent writes considered
 * @param minimumCalls         writes needed before the rate counts
 * @param openWait             how long it stays open before a trial write
 */
public record BreakerConfig(Boolean enabled,
                            @DecimalMin("1.0") @DecimalMax("100.0") Float failureRateThreshold,
                            @Min(1) Integer slidingWindow,
                            @Min(1) Integer minimumCalls,
                            Duration openWait) {

    public static final boolean DEFAULT_ENABLED = true;
    public static final float DEFAULT_FAILURE_RATE_THRESHOLD = 50f;
    public static final int DEFAULT_SLIDING_WINDOW = 10;
    public static final int DEFAULT_MINIMUM_CALLS = 5;
    public static final Duration DEFAULT_OPEN_WAIT = Duration.ofSeconds(5);

    public BreakerConfig {
        enabled = enabled == null ? DEFAULT_ENABLED : enabled;
        failureRateThreshold = failureRateThreshold == null ? DEFAULT_FAILURE_RATE_THRESHOLD : failureRateThreshold;
        slidingWindow = slidingWindow == null ? DEFAULT_SLIDING_WINDOW : slidingWindow;
        minimumCalls = minimumCalls == null ? DEFAULT_MINIMUM_CALLS : minimumCalls;
        openWait = openWait == null ? DEFAULT_OPEN_WAIT : openWait;
    }

    public static BreakerConfig defaults() {
        return new BreakerConfig(null, null, null, null, null);
    }
}
