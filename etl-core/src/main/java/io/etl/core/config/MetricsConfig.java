package io.etl.core.config;

import java.util.Map;
import java.util.Objects;

/**
 * Metrics settings.
 *
 * <p>In code, build one with {@link #custom()} or {@link #from(MetricsConfig)}:
 * {@code MetricsConfig.custom().commonTags(Map.of("env", "prod")).build()}.
 *
 * @param enabled    when false no meter of the pipeline (nor of its sources and sinks) reaches the registry
 *                   it was started with: they record into a registry with no backend
 * @param commonTags tags added to every meter of the pipeline (for example {@code env: prod})
 */
public record MetricsConfig(Boolean enabled, Map<String, String> commonTags) {

    public static final boolean DEFAULT_ENABLED = true;

    /**
     * The settings, each null one at its default (no common tags). YAML binding calls this constructor; code
     * reads better with {@link #custom()}.
     */
    public MetricsConfig(Boolean enabled, Map<String, String> commonTags) {
        this.enabled = enabled == null ? DEFAULT_ENABLED : enabled;
        this.commonTags = commonTags == null ? Map.of() : Map.copyOf(commonTags);
        ConfigValidation.checkConstructed(this);
    }

    /** Every setting at its default. */
    public static MetricsConfig defaults() {
        return new MetricsConfig(null, null);
    }

    /** A builder starting from the defaults. */
    public static Builder custom() {
        return new Builder(defaults());
    }

    /** A builder starting from {@code base}. */
    public static Builder from(MetricsConfig base) {
        return new Builder(Objects.requireNonNull(base, "base"));
    }

    /** Builds a {@link MetricsConfig} in code. */
    public static final class Builder {
        private boolean enabled;
        private Map<String, String> commonTags;

        private Builder(MetricsConfig base) {
            enabled = base.enabled();
            commonTags = base.commonTags();
        }

        /** Whether meters reach the registry the pipeline was started with; default {@value MetricsConfig#DEFAULT_ENABLED}. */
        public Builder enabled(boolean value) {
            enabled = value;
            return this;
        }

        /** Tags added to every meter of the pipeline; default none. */
        public Builder commonTags(Map<String, String> value) {
            commonTags = Map.copyOf(ConfigValidation.requireNonNull("commonTags", value));
            return this;
        }

        /** The settings. */
        public MetricsConfig build() {
            return new MetricsConfig(enabled, commonTags);
        }
    }
}
