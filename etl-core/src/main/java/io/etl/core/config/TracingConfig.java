package io.etl.core.config;

/**
 * The {@code pipeline.tracing} section: what the pipeline does with the W3C trace context
 * ({@code traceparent}, {@code tracestate}) of the records it reads.
 *
 * <pre>{@code
 * pipeline:
 *   tracing:
 *     propagate: true   # every output carries its input's trace context (default)
 *     spans: false      # no spans even when an OpenTelemetry SDK is registered (default true)
 * }</pre>
 *
 * @param propagate whether outputs carry their input's trace context; {@code false} turns tracing off entirely:
 *                  the pipeline then neither adds nor rewrites trace headers and creates no spans (an encoder
 *                  that copies every input header still copies these as ordinary headers)
 * @param spans     whether, when {@code propagate} is on and an OpenTelemetry SDK is registered as the global
 *                  one, the pipeline creates a consumer span per record and a producer span per output
 */
public record TracingConfig(Boolean propagate, Boolean spans) {

    public static final boolean DEFAULT_PROPAGATE = true;
    public static final boolean DEFAULT_SPANS = true;

    public TracingConfig {
        propagate = propagate == null ? DEFAULT_PROPAGATE : propagate;
        spans = spans == null ? DEFAULT_SPANS : spans;
    }

    public static TracingConfig defaults() {
        return new TracingConfig(null, null);
    }
}
