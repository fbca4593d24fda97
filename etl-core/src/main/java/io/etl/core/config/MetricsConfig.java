package io.etl.core.config;

import java.util.Map;

/**
 * Metrics settings.
 *
 * @param enabled    when false no meter of the pipeline (nor of its sources and sinks) reaches the registry
 *                   it was started with: they record into a registry with no backend
 * @param commonTags tags added to every meter of the pipeline (for example {@code env: prod})
 */
public record MetricsConfig(Boolean enabled, Map<String, String> commonTags) {

    public static final boolean DEFAULT_ENABLED = true;

    public MetricsConfig {
        enabled = enabled == null ? DEFAULT_ENABLED : enabled;
        commonTags = commonTags == null ? Map.of() : Map.copyOf(commonTags);
    }

    public static MetricsConfig defaults() {
        return new MetricsConfig(null, null);
    }
}
