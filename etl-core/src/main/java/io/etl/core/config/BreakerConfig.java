package io.etl.core.config;

import io.etl.core.error.ConfigException;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Min;
import java.time.Duration;
import java.util.Objects;

/**
 * The circuit breaker of each sink shard. It opens when at least {@code failure_rate_threshold} percent
 * of the last {@code sliding_window} batch writes failed (once {@code minimum_calls} were made); while
 * open the shard writes nothing for {@code open_wait}, then tries one batch.
 *
 * <p>In code, build one with {@link #custom()} or {@link #from(BreakerConfig)}:
 * {@code BreakerConfig.custom().slidingWindow(20).build()}. However it is built, an
 * instance holds only values that YAML validation accepts: its constructor checks them.
 *
 * @param enabled              whether the breaker is used at all
 * @param failureRateThreshold percentage of failed writes that opens it
 * @param slidingWindow        number of recent writes considered
 * @param minimumCalls         writes needed before the rate counts
 * @param openWait             how long it stays open before a trial write
 */
public record BreakerConfig(
        Boolean enabled,

        @DecimalMin(value = "1.0", message = AT_LEAST) @DecimalMax(value = "100.0", message = AT_MOST)
        Float failureRateThreshold,

        @Min(1) Integer slidingWindow,
        @Min(1) Integer minimumCalls,
        Duration openWait) {

    // the default messages of @DecimalMin/@DecimalMax need EL, which the validator runs without
    private static final String AT_LEAST = "must be greater than or equal to {value}";
    private static final String AT_MOST = "must be less than or equal to {value}";

    public static final boolean DEFAULT_ENABLED = true;
    public static final float DEFAULT_FAILURE_RATE_THRESHOLD = 50f;
    public static final int DEFAULT_SLIDING_WINDOW = 10;
    public static final int DEFAULT_MINIMUM_CALLS = 5;
    public static final Duration DEFAULT_OPEN_WAIT = Duration.ofSeconds(5);

    /**
     * The settings, each null one at its default. YAML binding calls this constructor; code reads better with
     * {@link #custom()}.
     *
     * @throws ConfigException when a setting is out of range, naming each one
     */
    public BreakerConfig(
            Boolean enabled,
            Float failureRateThreshold,
            Integer slidingWindow,
            Integer minimumCalls,
            Duration openWait) {
        this.enabled = enabled == null ? DEFAULT_ENABLED : enabled;
        this.failureRateThreshold =
                failureRateThreshold == null ? DEFAULT_FAILURE_RATE_THRESHOLD : failureRateThreshold;
        this.slidingWindow = slidingWindow == null ? DEFAULT_SLIDING_WINDOW : slidingWindow;
        this.minimumCalls = minimumCalls == null ? DEFAULT_MINIMUM_CALLS : minimumCalls;
        this.openWait = openWait == null ? DEFAULT_OPEN_WAIT : openWait;
        ConfigValidation.checkConstructed(this);
    }

    /** Every setting at its default. */
    public static BreakerConfig defaults() {
        return new BreakerConfig(null, null, null, null, null);
    }

    /** A builder starting from the defaults. */
    public static Builder custom() {
        return new Builder(defaults());
    }

    /** A builder starting from {@code base}. */
    public static Builder from(BreakerConfig base) {
        return new Builder(Objects.requireNonNull(base, "base"));
    }

    /**
     * Builds a {@link BreakerConfig} in code; each setter rejects a value out of range at once, with the
     * message YAML validation gives, and {@link #build()} checks the whole.
     */
    public static final class Builder {
        private boolean enabled;
        private float failureRateThreshold;
        private int slidingWindow;
        private int minimumCalls;
        private Duration openWait;

        private Builder(BreakerConfig base) {
            enabled = base.enabled();
            failureRateThreshold = base.failureRateThreshold();
            slidingWindow = base.slidingWindow();
            minimumCalls = base.minimumCalls();
            openWait = base.openWait();
        }

        /** Whether the breaker is used at all; default {@value BreakerConfig#DEFAULT_ENABLED}. */
        public Builder enabled(boolean value) {
            enabled = ConfigValidation.requireNonNull("enabled", value);
            return this;
        }

        /** Percentage of failed writes that opens it, 1 to 100; default 50. */
        public Builder failureRateThreshold(float value) {
            failureRateThreshold = ConfigValidation.checkValue(BreakerConfig.class, "failureRateThreshold", value);
            return this;
        }

        /** Number of recent writes considered, at least 1; default {@value BreakerConfig#DEFAULT_SLIDING_WINDOW}. */
        public Builder slidingWindow(int value) {
            slidingWindow = ConfigValidation.checkValue(BreakerConfig.class, "slidingWindow", value);
            return this;
        }

        /** Writes needed before the rate counts, at least 1; default {@value BreakerConfig#DEFAULT_MINIMUM_CALLS}. */
        public Builder minimumCalls(int value) {
            minimumCalls = ConfigValidation.checkValue(BreakerConfig.class, "minimumCalls", value);
            return this;
        }

        /** How long it stays open before a trial write, zero or more; default 5s. */
        public Builder openWait(Duration value) {
            openWait = ConfigValidation.checkDuration("openWait", value);
            return this;
        }

        /** The settings; the constructor checks the whole as YAML validation does. */
        public BreakerConfig build() {
            return new BreakerConfig(enabled, failureRateThreshold, slidingWindow, minimumCalls, openWait);
        }
    }
}
