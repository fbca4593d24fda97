package io.etl.core.config;

import io.etl.core.error.ErrorPolicy;

/**
 * The {@code pipeline} section.
 *
 * @param name    pipeline name; overrides the name given in code when set
 * @param onError default policy for exceptions thrown by operators (a stage may set its own)
 */
public record PipelineSection(String name, ErrorPolicy onError) {

    public static final ErrorPolicy DEFAULT_ON_ERROR = ErrorPolicy.FAIL;

    public PipelineSection {
        onError = onError == null ? DEFAULT_ON_ERROR : onError;
    }

    public static PipelineSection defaults() {
        return new PipelineSection(null, null);
    }
}
