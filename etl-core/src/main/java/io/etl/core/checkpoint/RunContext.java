package io.etl.core.checkpoint;

import io.etl.core.config.DeliveryGuarantee;
import io.etl.core.config.PipelineSection;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * What the source and the sinks of one pipeline run share: the run's delivery guarantee and a small
 * registry of objects keyed by type. Connectors of one family use it to hand each other what a transaction
 * needs (a Kafka source registers its consumer's group metadata, the Kafka sinks look it up) while the core
 * only carries the registry. The pipeline looks up {@link TransactionalCheckpoint} here in exactly-once mode.
 *
 * <p>{@code
 * Link link = context.run().computeIfAbsent(Link.class, Link::new);
 * }
 */
public final class RunContext {

    private final String runId;
    private final DeliveryGuarantee delivery;
    private final String transactionalId;
    private final Duration transactionTimeout;
    private final Map<Class<?>, Object> shared = new ConcurrentHashMap<>();

    private RunContext(String runId, DeliveryGuarantee delivery, String transactionalId, Duration transactionTimeout) {
        this.runId = Objects.requireNonNull(runId, "runId");
        this.delivery = Objects.requireNonNull(delivery, "delivery");
        this.transactionalId = transactionalId;
        this.transactionTimeout = Objects.requireNonNull(transactionTimeout, "transactionTimeout");
    }

    /**
     * A fresh context for one run.
     *
     * @param transactionalId the configured {@code pipeline.transactional_id}, or null to let the connector
     *                        derive one
     */
    public static RunContext of(
            String runId, DeliveryGuarantee delivery, String transactionalId, Duration transactionTimeout) {
        return new RunContext(runId, delivery, transactionalId, transactionTimeout);
    }

    /** An at-least-once context, for connectors opened outside a pipeline (tests, tools). */
    public static RunContext atLeastOnce(String runId) {
        return new RunContext(
                runId, DeliveryGuarantee.AT_LEAST_ONCE, null, PipelineSection.DEFAULT_TRANSACTION_TIMEOUT);
    }

    /** Unique per run of a pipeline. */
    public String runId() {
        return runId;
    }

    public DeliveryGuarantee delivery() {
        return delivery;
    }

    /** Whether this run commits outputs and offsets in transactions. */
    public boolean exactlyOnce() {
        return delivery == DeliveryGuarantee.EXACTLY_ONCE;
    }

    /** The configured {@code pipeline.transactional_id}, if any. */
    public Optional<String> transactionalId() {
        return Optional.ofNullable(transactionalId);
    }

    /** {@code pipeline.transaction_timeout}. */
    public Duration transactionTimeout() {
        return transactionTimeout;
    }

    /** The object registered for {@code type}, registering what {@code create} makes when there is none. */
    public <T> T computeIfAbsent(Class<T> type, Supplier<? extends T> create) {
        return type.cast(shared.computeIfAbsent(type, k -> Objects.requireNonNull(create.get(), "created")));
    }

    /** The object registered for {@code type}, if any. */
    public <T> Optional<T> find(Class<T> type) {
        return Optional.ofNullable(type.cast(shared.get(type)));
    }
}
