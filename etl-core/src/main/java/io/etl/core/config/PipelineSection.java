package io.etl.core.config;

import io.etl.core.error.ErrorPolicy;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import java.time.Duration;
import java.util.Optional;

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
 * @param delivery         at-least-once (default) or exactly-once delivery
 * @param transactionalId  in exactly-once mode, the id that names this instance's transactions; unique per
 *                         live instance and stable across its restarts. When unset the connector derives one
 * @param transactionTimeout in exactly-once mode, how long the brokers let a transaction stay open before they
 *                         abort it; must be at least twice {@code checkpoint.interval}
 */
public record PipelineSection(
        String name,
        ErrorPolicy onError,
        @Min(1) Integer operatorAttempts,
        Duration operatorBackoff,
        Duration shutdownTimeout,
        @Valid TracingConfig tracing,
        DeliveryGuarantee delivery,
        String transactionalId,
        Duration transactionTimeout) {

    public static final ErrorPolicy DEFAULT_ON_ERROR = ErrorPolicy.FAIL;
    public static final int DEFAULT_OPERATOR_ATTEMPTS = 3;
    public static final Duration DEFAULT_OPERATOR_BACKOFF = Duration.ofMillis(100);
    /** The default stop budget: the default drain timeout (30s) plus time to commit and close the clients. */
    public static final Duration DEFAULT_SHUTDOWN_TIMEOUT = Duration.ofSeconds(45);

    public static final DeliveryGuarantee DEFAULT_DELIVERY = DeliveryGuarantee.AT_LEAST_ONCE;
    /**
     * Kafka Streams' exactly-once default: short, so that the transaction of an instance that died and does not
     * come back (scaled in, or a new id) stops holding up read-committed consumers soon.
     */
    public static final Duration DEFAULT_TRANSACTION_TIMEOUT = Duration.ofSeconds(10);

    public PipelineSection {
        onError = onError == null ? DEFAULT_ON_ERROR : onError;
        operatorAttempts = operatorAttempts == null ? DEFAULT_OPERATOR_ATTEMPTS : operatorAttempts;
        operatorBackoff = operatorBackoff == null ? DEFAULT_OPERATOR_BACKOFF : operatorBackoff;
        shutdownTimeout = shutdownTimeout == null ? DEFAULT_SHUTDOWN_TIMEOUT : shutdownTimeout;
        tracing = tracing == null ? TracingConfig.defaults() : tracing;
        delivery = delivery == null ? DEFAULT_DELIVERY : delivery;
        transactionTimeout = transactionTimeout == null ? DEFAULT_TRANSACTION_TIMEOUT : transactionTimeout;
    }

    /** A section with at-least-once delivery. */
    public PipelineSection(
            String name,
            ErrorPolicy onError,
            Integer operatorAttempts,
            Duration operatorBackoff,
            Duration shutdownTimeout,
            TracingConfig tracing) {
        this(name, onError, operatorAttempts, operatorBackoff, shutdownTimeout, tracing, null, null, null);
    }

    /** A copy with {@code delivery} set. */
    public PipelineSection withDelivery(DeliveryGuarantee guarantee) {
        return new PipelineSection(
                name,
                onError,
                operatorAttempts,
                operatorBackoff,
                shutdownTimeout,
                tracing,
                guarantee,
                transactionalId,
                transactionTimeout);
    }

    /** {@link #transactionalId()}, when set. */
    public Optional<String> configuredTransactionalId() {
        return Optional.ofNullable(transactionalId);
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
        return new PipelineSection(null, null, null, null, null, null, null, null, null);
    }
}
