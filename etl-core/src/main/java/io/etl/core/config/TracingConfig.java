package io.etl.core.config;

import java.util.Objects;

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
 * <p>In code, build one with {@link #custom()} or {@link #from(TracingConfig)}:
 * {@code TracingConfig.custom().spans(false).build()}.
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

    /**
     * The settings, each null one at its default. YAML binding calls this constructor; code reads better with
     * {@link #custom()}.
     */
    public TracingConfig(Boolean propagate, Boolean spans) {
        this.propagate = propagate == null ? DEFAULT_PROPAGATE : propagate;
        this.spans = spans == null ? DEFAULT_SPANS : spans;
        ConfigValidation.checkConstructed(this);
    }

    /** Every setting at its default. */
    public static TracingConfig defaults() {
        return new TracingConfig(null, null);
    }

    /** A builder starting from the defaults. */
    public static Builder custom() {
        return new Builder(defaults());
    }

    /** A builder starting from {@code base}. */
    public static Builder from(TracingConfig base) {
        return new Builder(Objects.requireNonNull(base, "base"));
    }

    /** Builds a {@link TracingConfig} in code. */
    public static final class Builder {
        private boolean propagate;
        private boolean spans;

        private Builder(TracingConfig base) {
            propagate = base.propagate();
            spans = base.spans();
        }

        /** Whether outputs carry their input's trace context; default {@value TracingConfig#DEFAULT_PROPAGATE}. */
        public Builder propagate(boolean value) {
            propagate = value;
            return this;
        }

        /** Whether spans are created when an SDK is registered; default {@value TracingConfig#DEFAULT_SPANS}. */
        public Builder spans(boolean value) {
            spans = value;
            return this;
        }

        /** The settings. */
        public TracingConfig build() {
            return new TracingConfig(propagate, spans);
        }
    }
}
