package io.etl.core.config;

import io.etl.core.error.ErrorPolicy;
import jakarta.validation.Valid;

/**
 * The {@code pipeline} section.
 *
 * @param name    pipeline name; overrides the name given in code when set
 * @param onError default policy for exceptions thrown by operators (a stage may set its own)
 * @param tracing what happens to the W3C trace context of the records read
 */
public record PipelineSection(String name, ErrorPolicy onError, @Valid TracingConfig tracing) {

    public static final ErrorPolicy DEFAULT_ON_ERROR = ErrorPolicy.FAIL;

    public PipelineSection {
        onError = onError == null ? DEFAULT_ON_ERROR : onError;
        tracing = tracing == null ? TracingConfig.defaults() : tracing;
    }

    /** A section with default tracing. */
    public PipelineSection(String name, ErrorPolicy onError) {
        this(name, onError, null);
    }

    public static PipelineSection defaults() {
        return new PipelineSection(null, null);
    }
}
