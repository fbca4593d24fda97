package io.etl.core.internal.pool;

import io.etl.core.config.RetryConfig;
import java.util.concurrent.ThreadLocalRandom;

/** Capped exponential backoff with jitter. */
final class Backoff {

    private final RetryConfig config;

    Backoff(RetryConfig config) {
        this.config = config;
    }

    /** Nanoseconds to wait before retry number {@code retry} (1 for the first retry). */
    long delayNanos(int retry) {
        double base = config.initialBackoff().toNanos() * Math.pow(config.multiplier(), Math.max(0, retry - 1));
        double capped = Math.min(base, config.maxBackoff().toNanos());
        double spread = capped * config.jitter();
        double jittered =
                capped + (spread == 0 ? 0 : ThreadLocalRandom.current().nextDouble(-spread, spread));
        return (long) Math.max(0, Math.min(jittered, config.maxBackoff().toNanos()));
    }

    /** Whether another attempt is allowed after {@code attempts} attempts. */
    boolean mayRetry(int attempts) {
        return config.maxAttempts() == 0 || attempts < config.maxAttempts();
    }
}
