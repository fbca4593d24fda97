package io.etl.core.config;

import io.etl.core.error.ConfigException;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Min;
import java.time.Duration;
import java.util.Objects;

/**
 * Retry of a whole batch after a retryable failure: the n-th retry waits
 * {@code min(max_backoff, initial_backoff * multiplier^(n-1))}, spread by {@code ± jitter}.
 *
 * <p>In code, build one with {@link #custom()} or {@link #from(RetryConfig)}:
 * {@code RetryConfig.custom().maxAttempts(5).build()}. However it is built, an
 * instance holds only values that YAML validation accepts: its constructor checks them.
 *
 * @param initialBackoff wait before the first retry
 * @param maxBackoff     cap on any wait
 * @param multiplier     growth factor per attempt
 * @param jitter         random spread as a fraction of the wait (0 to 1)
 * @param maxAttempts    attempts before the failure turns fatal; 0 retries for ever
 */
public record RetryConfig(
        Duration initialBackoff,
        Duration maxBackoff,
        @DecimalMin(value = "1.0", message = AT_LEAST) Double multiplier,

        @DecimalMin(value = "0.0", message = AT_LEAST) @DecimalMax(value = "1.0", message = AT_MOST)
        Double jitter,

        @Min(0) Integer maxAttempts) {

    // the default messages of @DecimalMin/@DecimalMax need EL, which the validator runs without
    private static final String AT_LEAST = "must be greater than or equal to {value}";
    private static final String AT_MOST = "must be less than or equal to {value}";

    public static final Duration DEFAULT_INITIAL_BACKOFF = Duration.ofMillis(100);
    public static final Duration DEFAULT_MAX_BACKOFF = Duration.ofSeconds(10);
    public static final double DEFAULT_MULTIPLIER = 2.0;
    public static final double DEFAULT_JITTER = 0.2;
    public static final int DEFAULT_MAX_ATTEMPTS = 0;

    /**
     * The settings, each null one at its default. YAML binding calls this constructor; code reads better with
     * {@link #custom()}.
     *
     * @throws ConfigException when a setting is out of range, naming each one
     */
    public RetryConfig(
            Duration initialBackoff, Duration maxBackoff, Double multiplier, Double jitter, Integer maxAttempts) {
        this.initialBackoff = initialBackoff == null ? DEFAULT_INITIAL_BACKOFF : initialBackoff;
        this.maxBackoff = maxBackoff == null ? DEFAULT_MAX_BACKOFF : maxBackoff;
        this.multiplier = multiplier == null ? DEFAULT_MULTIPLIER : multiplier;
        this.jitter = jitter == null ? DEFAULT_JITTER : jitter;
        this.maxAttempts = maxAttempts == null ? DEFAULT_MAX_ATTEMPTS : maxAttempts;
        ConfigValidation.checkConstructed(this);
    }

    /** Every setting at its default. */
    public static RetryConfig defaults() {
        return new RetryConfig(null, null, null, null, null);
    }

    /** A builder starting from the defaults. */
    public static Builder custom() {
        return new Builder(defaults());
    }

    /** A builder starting from {@code base}. */
    public static Builder from(RetryConfig base) {
        return new Builder(Objects.requireNonNull(base, "base"));
    }

    /**
     * Builds a {@link RetryConfig} in code; each setter rejects a value out of range at once, with the
     * message YAML validation gives, and {@link #build()} checks the whole.
     */
    public static final class Builder {
        private Duration initialBackoff;
        private Duration maxBackoff;
        private double multiplier;
        private double jitter;
        private int maxAttempts;

        private Builder(RetryConfig base) {
            initialBackoff = base.initialBackoff();
            maxBackoff = base.maxBackoff();
            multiplier = base.multiplier();
            jitter = base.jitter();
            maxAttempts = base.maxAttempts();
        }

        /** Wait before the first retry, zero or more; default 100ms. */
        public Builder initialBackoff(Duration value) {
            initialBackoff = ConfigValidation.checkDuration("initialBackoff", value);
            return this;
        }

        /** Cap on any wait, zero or more; default 10s. */
        public Builder maxBackoff(Duration value) {
            maxBackoff = ConfigValidation.checkDuration("maxBackoff", value);
            return this;
        }

        /** Growth factor per attempt, at least 1.0; default {@value RetryConfig#DEFAULT_MULTIPLIER}. */
        public Builder multiplier(double value) {
            multiplier = ConfigValidation.checkValue(RetryConfig.class, "multiplier", value);
            return this;
        }

        /** Random spread as a fraction of the wait, 0.0 to 1.0; default {@value RetryConfig#DEFAULT_JITTER}. */
        public Builder jitter(double value) {
            jitter = ConfigValidation.checkValue(RetryConfig.class, "jitter", value);
            return this;
        }

        /** Attempts before the failure turns fatal, 0 (for ever) or more; default 0. */
        public Builder maxAttempts(int value) {
            maxAttempts = ConfigValidation.checkValue(RetryConfig.class, "maxAttempts", value);
            return this;
        }

        /** The settings; the constructor checks the whole as YAML validation does. */
        public RetryConfig build() {
            return new RetryConfig(initialBackoff, maxBackoff, multiplier, jitter, maxAttempts);
        }
    }
}
