package io.etl.core.config;

import io.etl.core.error.ConfigException;
import io.etl.core.error.ErrorPolicy;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Pattern;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@code pipeline} section.
 *
 * <p>In code, build one with {@link #custom()} or {@link #from(PipelineSection)}:
 * {@code PipelineSection.custom().onError(ErrorPolicy.SKIP).build()}. However it is built, an instance holds only
 * values that YAML validation accepts: its constructor checks them.
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
 *                         live instance and stable across its restarts, never blank. When unset the connector
 *                         derives one
 * @param transactionTimeout in exactly-once mode, how long the brokers let a transaction stay open before they
 *                         abort it; must be at least twice {@code checkpoint.interval}
 * @param stages           settings of asynchronous stages by stage name; a key set here overrides the same key
 *                         set in code ({@link StageConfig})
 * @param refusedMessageAttempts in exactly-once mode, how many transactions an output its destination refuses on
 *                         its own account (too large for the topic, against a broker policy) may abort; the next
 *                         time its record is processed, its sink's {@code on_error} applies instead of a send
 * @param threads          how many pipeline loops this instance runs, as Kafka Streams' {@code num.stream.threads}:
 *                         each loop has its own consumer, a member of the source's group, and its own operator chain
 *                         and sink pools; the loops share the sinks' producers. Operators, decoders and encoders are
 *                         then called from several threads at once. At least 1; 1 with exactly-once delivery
 */
public record PipelineSection(
        String name,
        ErrorPolicy onError,
        @Min(1) Integer operatorAttempts,
        Duration operatorBackoff,
        Duration shutdownTimeout,
        @Valid TracingConfig tracing,
        DeliveryGuarantee delivery,

        @Pattern(regexp = "(?s).*\\S.*", message = "must not be blank when set")
        String transactionalId,

        Duration transactionTimeout,
        Map<String, @Valid StageConfig> stages,

        @Min(value = 1, message = BETWEEN_1_AND_100) @Max(value = 100, message = BETWEEN_1_AND_100)
        Integer refusedMessageAttempts,

        @Min(1) Integer threads) {

    public static final ErrorPolicy DEFAULT_ON_ERROR = ErrorPolicy.FAIL;

    private static final String BETWEEN_1_AND_100 = "must be between 1 and 100";
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
    /**
     * A refusal that repeats is the topic's or the brokers' answer to that message, not a passing state: three
     * attempts ride out one that is not, and cost two replays of a checkpoint interval.
     */
    public static final int DEFAULT_REFUSED_MESSAGE_ATTEMPTS = 3;
    /** One loop: an instance scales out by the consumer group; more loops scale it up on more cores. */
    public static final int DEFAULT_THREADS = 1;

    /**
     * The settings, each null one at its default ({@code name} and {@code transactionalId} stay unset). YAML
     * binding calls this constructor; code reads better with {@link #custom()}.
     *
     * @throws ConfigException when a setting is out of range, naming each one
     */
    public PipelineSection(
            String name,
            ErrorPolicy onError,
            Integer operatorAttempts,
            Duration operatorBackoff,
            Duration shutdownTimeout,
            TracingConfig tracing,
            DeliveryGuarantee delivery,
            String transactionalId,
            Duration transactionTimeout,
            Map<String, StageConfig> stages,
            Integer refusedMessageAttempts,
            Integer threads) {
        this.name = name;
        this.onError = onError == null ? DEFAULT_ON_ERROR : onError;
        this.operatorAttempts = operatorAttempts == null ? DEFAULT_OPERATOR_ATTEMPTS : operatorAttempts;
        this.operatorBackoff = operatorBackoff == null ? DEFAULT_OPERATOR_BACKOFF : operatorBackoff;
        this.shutdownTimeout = shutdownTimeout == null ? DEFAULT_SHUTDOWN_TIMEOUT : shutdownTimeout;
        this.tracing = tracing == null ? TracingConfig.defaults() : tracing;
        this.delivery = delivery == null ? DEFAULT_DELIVERY : delivery;
        this.transactionalId = transactionalId;
        this.transactionTimeout = transactionTimeout == null ? DEFAULT_TRANSACTION_TIMEOUT : transactionTimeout;
        this.stages = stages == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(stages));
        this.refusedMessageAttempts =
                refusedMessageAttempts == null ? DEFAULT_REFUSED_MESSAGE_ATTEMPTS : refusedMessageAttempts;
        this.threads = threads == null ? DEFAULT_THREADS : threads;
        ConfigValidation.checkConstructed(this);
    }

    /** {@code from(this).delivery(guarantee).build()}. */
    public PipelineSection withDelivery(DeliveryGuarantee guarantee) {
        return from(this).delivery(guarantee).build();
    }

    /** {@link #transactionalId()}, when set. */
    public Optional<String> configuredTransactionalId() {
        return Optional.ofNullable(transactionalId);
    }

    /** Every setting at its default. */
    public static PipelineSection defaults() {
        return new PipelineSection(null, null, null, null, null, null, null, null, null, null, null, null);
    }

    /** A builder starting from the defaults. */
    public static Builder custom() {
        return new Builder(defaults());
    }

    /** A builder starting from {@code base}. */
    public static Builder from(PipelineSection base) {
        return new Builder(Objects.requireNonNull(base, "base"));
    }

    /**
     * Builds a {@link PipelineSection} in code; each setter rejects a value out of range at once, with the
     * message YAML validation gives, and {@link #build()} checks the whole.
     */
    public static final class Builder {
        private String name;
        private ErrorPolicy onError;
        private int operatorAttempts;
        private Duration operatorBackoff;
        private Duration shutdownTimeout;
        private TracingConfig tracing;
        private DeliveryGuarantee delivery;
        private String transactionalId;
        private Duration transactionTimeout;
        private Map<String, StageConfig> stages;
        private int refusedMessageAttempts;
        private int threads;

        private Builder(PipelineSection base) {
            name = base.name();
            onError = base.onError();
            operatorAttempts = base.operatorAttempts();
            operatorBackoff = base.operatorBackoff();
            shutdownTimeout = base.shutdownTimeout();
            tracing = base.tracing();
            delivery = base.delivery();
            transactionalId = base.transactionalId();
            transactionTimeout = base.transactionTimeout();
            stages = base.stages();
            refusedMessageAttempts = base.refusedMessageAttempts();
            threads = base.threads();
        }

        /** The pipeline's name, which overrides the name given in code; default unset. */
        public Builder name(String value) {
            name = ConfigValidation.requireNonNull("name", value);
            return this;
        }

        /** The default policy for exceptions thrown by operators; default {@code FAIL}. */
        public Builder onError(ErrorPolicy value) {
            onError = ConfigValidation.requireNonNull("onError", value);
            return this;
        }

        /**
         * Calls of an operator for one record that throws a retryable exception, at least 1; default
         * {@value PipelineSection#DEFAULT_OPERATOR_ATTEMPTS}.
         */
        public Builder operatorAttempts(int value) {
            operatorAttempts = ConfigValidation.checkValue(PipelineSection.class, "operatorAttempts", value);
            return this;
        }

        /** Wait before an operator's first retry, zero or more; default 100ms. */
        public Builder operatorBackoff(Duration value) {
            operatorBackoff = ConfigValidation.checkDuration("operatorBackoff", value);
            return this;
        }

        /** The whole stop's budget, zero or more; default 45s. */
        public Builder shutdownTimeout(Duration value) {
            shutdownTimeout = ConfigValidation.checkDuration("shutdownTimeout", value);
            return this;
        }

        /** What happens to the trace context of the records read. */
        public Builder tracing(TracingConfig value) {
            tracing = ConfigValidation.requireNonNull("tracing", value);
            return this;
        }

        /** At-least-once or exactly-once delivery; default {@code AT_LEAST_ONCE}. */
        public Builder delivery(DeliveryGuarantee value) {
            delivery = ConfigValidation.requireNonNull("delivery", value);
            return this;
        }

        /** The id naming this instance's transactions in exactly-once mode, not blank; default unset. */
        public Builder transactionalId(String value) {
            transactionalId = ConfigValidation.checkValue(PipelineSection.class, "transactionalId", value);
            return this;
        }

        /** How long the brokers let a transaction stay open, zero or more; default 10s. */
        public Builder transactionTimeout(Duration value) {
            transactionTimeout = ConfigValidation.checkDuration("transactionTimeout", value);
            return this;
        }

        /** The settings of asynchronous stages by name (replacing any given before); default none. */
        public Builder stages(Map<String, StageConfig> value) {
            stages = Map.copyOf(ConfigValidation.requireNonNull("stages", value));
            return this;
        }

        /** The settings of the asynchronous stage {@code stage}, overriding those given in code key by key. */
        public Builder stage(String stage, StageConfig value) {
            ConfigValidation.requireNonNull("stages", stage);
            Map<String, StageConfig> copy = new LinkedHashMap<>(stages);
            copy.put(stage, ConfigValidation.requireNonNull("stages." + stage, value));
            stages = copy;
            return this;
        }

        /**
         * In exactly-once mode, how many transactions an output its destination refuses may abort before its sink's
         * {@code on_error} applies, 1 to 100; default {@value PipelineSection#DEFAULT_REFUSED_MESSAGE_ATTEMPTS}.
         */
        public Builder refusedMessageAttempts(int value) {
            refusedMessageAttempts =
                    ConfigValidation.checkValue(PipelineSection.class, "refusedMessageAttempts", value);
            return this;
        }

        /**
         * How many pipeline loops this instance runs, at least 1; default {@value PipelineSection#DEFAULT_THREADS}.
         * More than one is for at-least-once delivery only.
         */
        public Builder threads(int value) {
            threads = ConfigValidation.checkValue(PipelineSection.class, "threads", value);
            return this;
        }

        /** The settings; the constructor checks the whole as YAML validation does. */
        public PipelineSection build() {
            return new PipelineSection(
                    name,
                    onError,
                    operatorAttempts,
                    operatorBackoff,
                    shutdownTimeout,
                    tracing,
                    delivery,
                    transactionalId,
                    transactionTimeout,
                    stages,
                    refusedMessageAttempts,
                    threads);
        }
    }
}
