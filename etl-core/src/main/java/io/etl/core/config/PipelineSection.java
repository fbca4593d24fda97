package io.etl.core.config;

import io.etl.core.error.ErrorPolicy;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import java.time.Duration;

/**
 * The {@code pipeline} section.
 *
 * @param name             pipeline name; overrides the name given in code when set
 * @param onError          default policy for exceptions thrown by operators (a stage may set its own)
 * @param operatorAttempts how many times an operator (or split predicate) is called for one record when it
 *                         throws a {@link io.etl.core.error.RetryableException}, before its policy applies; other
 *                         exceptions are never retried
 * @param operatorBackoff  wait before the first such retry; doubled for each further one
 * @param shutdownTimeout  the whole stop (drain, final commit, closing the clients) must fit in it; must be
 *                         greater than {@code checkpoint.drain_timeout}, which is the drain's share of it
 * @param tracing          what happens to the W3C trace context of the records read
 */
public record PipelineSection(String name, ErrorPolicy onError, @Min(1) Integer operatorAttempts,
                              Duration operatorBackoff, Duration shutdownTimeout, @Valid TracingConfig tracing) {

    public static final ErrorPolicy DEFAULT_ON_ERROR = ErrorPolicy.FAIL;
    public static final int DEFAULT_OPERATOR_ATTEMPTS = 3;
    public static final Duration DEFAULT_OPERATOR_BACKOFF = Duration.ofMillis(100);
    /** The default stop budget: the default drain timeout (30s) plus time to commit and close the clients. */
    public static final Duration DEFAULT_SHUTDOWN_TIMEOUT = Duration.ofSeconds(45);

    public PipelineSection {
        onError = onError == null ? DEFAULT_ON_ERROR : onError;
        operatorAttempts = operatorAttempts == null ? DEFAULT_OPERATOR_ATTEMPTS : operatorAttempts;
        operatorBackoff = operatorBackoff == null ? DEFAULT_OPERATOR_BACKOFF : operatorBackoff;
        shutdownTimeout = shutdownTimeout == null ? DEFAULT_SHUTDOWN_TIMEOUT : shutdownTimeout;
        tracing = tracing == null ? TracingConfig.defaults() : tracing;
    }

    /** A section with the default operator retries, stop budget and tracing. */
    public PipelineSection(String name, ErrorPolicy onError) {
        this(name, onError, null, null, null, null);
    }

    /** A section with the default operator retries and tracing. */
    public PipelineSection(String name, ErrorPolicy onError, Duration shutdownTimeout) {
        this(name, onError, null, null, shutdownTimeout, null);
    }

    public static PipelineSection defaults() {
        return new PipelineSection(null, null, null, null, null, null);
    }
}
