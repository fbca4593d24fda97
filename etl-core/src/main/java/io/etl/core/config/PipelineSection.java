package io.etl.core.config;

import io.etl.core.error.ErrorPolicy;
import java.time.Duration;

/**
 * The {@code pipeline} section.
 *
 * @param name            pipeline name; overrides the name given in code when set
 * @param onError         default policy for exceptions thrown by operators (a stage may set its own)
 * @param shutdownTimeout the whole stop (drain, final commit, closing the clients) must fit in it; must be
 *                        greater than {@code checkpoint.drain_timeout}, which is the drain's share of it
 */
public record PipelineSection(String name, ErrorPolicy onError, Duration shutdownTimeout) {

    public static final ErrorPolicy DEFAULT_ON_ERROR = ErrorPolicy.FAIL;
    /** The default stop budget: the default drain timeout (30s) plus time to commit and close the clients. */
    public static final Duration DEFAULT_SHUTDOWN_TIMEOUT = Duration.ofSeconds(45);

    public PipelineSection {
        onError = onError == null ? DEFAULT_ON_ERROR : onError;
        shutdownTimeout = shutdownTimeout == null ? DEFAULT_SHUTDOWN_TIMEOUT : shutdownTimeout;
    }

    /** A section with the default shutdown timeout. */
    public PipelineSection(String name, ErrorPolicy onError) {
        this(name, onError, null);
    }

    public static PipelineSection defaults() {
        return new PipelineSection(null, null, null);
    }
}
