package io.etl.runtime.internal;

import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Exports the pipeline's spans over OTLP when the standard OpenTelemetry environment variables ask for it:
 * {@code OTEL_SERVICE_NAME}, {@code OTEL_EXPORTER_OTLP_ENDPOINT}, {@code OTEL_EXPORTER_OTLP_TRACES_ENDPOINT}
 * or {@code OTEL_TRACES_EXPORTER}. The SDK is built by OpenTelemetry's autoconfigure module, so every
 * {@code OTEL_*} variable means what OpenTelemetry documents, and registered as the global
 * {@code OpenTelemetry} the pipeline's tracing looks for when it starts. Metrics and logs are not exported
 * through it unless {@code OTEL_METRICS_EXPORTER} / {@code OTEL_LOGS_EXPORTER} say so: metrics have their
 * own endpoint.
 *
 * <p>Never fails start-up: without the variables nothing is built, and a configuration the SDK rejects is
 * logged as a warning.
 *
 * <pre>{@code
 * try (TraceExport export = TraceExport.start(System.getenv())) {
 *     pipeline.run(config);
 * }
 * }</pre>
 */
public final class TraceExport implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TraceExport.class);

    /** The variables any one of which turns export on. */
    public static final List<String> TRIGGERS = List.of(
            "OTEL_SERVICE_NAME",
            "OTEL_EXPORTER_OTLP_ENDPOINT",
            "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
            "OTEL_TRACES_EXPORTER");
    /** How long {@link #close()} waits for the last spans to be exported. */
    public static final long CLOSE_TIMEOUT_SECONDS = 10;

    private static final TraceExport NONE = new TraceExport(null);

    private final OpenTelemetrySdk sdk;

    private TraceExport(OpenTelemetrySdk sdk) {
        this.sdk = sdk;
    }

    /** Whether {@code env} sets one of the {@link #TRIGGERS} to something not blank. */
    public static boolean requested(Map<String, String> env) {
        for (String name : TRIGGERS) {
            String value = env.get(name);
            if (value != null && !value.isBlank()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Builds the SDK from {@code env} (normally {@code System.getenv()}) and registers it as the global one when
     * {@link #requested}; otherwise, or when the SDK cannot be built, returns an export that does nothing.
     */
    public static TraceExport start(Map<String, String> env) {
        if (!requested(env)) {
            LOG.debug("no OTEL_* variable asks for trace export ({}); not exporting", TRIGGERS);
            return NONE;
        }
        Map<String, String> properties = properties(env);
        if ("true".equalsIgnoreCase(properties.get("otel.sdk.disabled"))) {
            LOG.info("OpenTelemetry: OTEL_SDK_DISABLED is true; not exporting");
            return NONE;
        }
        try {
            OpenTelemetrySdk sdk = AutoConfiguredOpenTelemetrySdk.builder()
                    .addPropertiesSupplier(() -> Map.of("otel.metrics.exporter", "none", "otel.logs.exporter", "none"))
                    .addPropertiesCustomizer(config -> properties)
                    .disableShutdownHook()
                    .setResultAsGlobal()
                    .build()
                    .getOpenTelemetrySdk();
            LOG.info(
                    "OpenTelemetry: exporting spans with {} (service '{}')",
                    properties.getOrDefault("otel.traces.exporter", "otlp"),
                    properties.getOrDefault("otel.service.name", "unknown_service:java"));
            return new TraceExport(sdk);
        } catch (RuntimeException | LinkageError e) {
            LOG.warn("OpenTelemetry: trace export not started, the pipeline runs without it: {}", e.getMessage());
            return NONE;
        }
    }

    /** {@code OTEL_EXPORTER_OTLP_ENDPOINT} becomes {@code otel.exporter.otlp.endpoint}, as autoconfigure reads it. */
    static Map<String, String> properties(Map<String, String> env) {
        Map<String, String> properties = new HashMap<>();
        env.forEach((name, value) -> {
            if (name.startsWith("OTEL_") && value != null && !value.isBlank()) {
                properties.put(name.toLowerCase(Locale.ROOT).replace('_', '.'), value);
            }
        });
        return properties;
    }

    /** Whether an SDK was built and registered. */
    public boolean active() {
        return sdk != null;
    }

    /** Exports what is buffered and shuts the SDK down, waiting at most {@link #CLOSE_TIMEOUT_SECONDS}. */
    @Override
    public void close() {
        if (sdk != null) {
            sdk.shutdown().join(CLOSE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }
}
