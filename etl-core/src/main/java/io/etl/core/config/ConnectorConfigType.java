package io.etl.core.config;

import io.etl.core.error.ConfigProblem;
import io.etl.core.error.DeadLetter;
import io.etl.core.error.RetryLetter;
import io.etl.core.sink.Sink;
import java.util.List;
import java.util.Optional;

/**
 * Extension point through which a connector module adds its typed sub-section to the configuration,
 * without the core knowing it. Registered with {@link java.util.ServiceLoader} (a
 * {@code META-INF/services/io.etl.core.config.ConnectorConfigType} file).
 *
 * <p>For a sink, the shared pool keys ({@link SinkPoolConfig#KEYS}) are taken out of the connector
 * section by the core; for a source, {@code on_error}. The remaining keys are bound to {@link #type()}
 * strictly (unknown keys are problems with their full path), checked against the record's constraint
 * annotations (those of {@code jakarta.validation.constraints} and {@code @Valid}, on components and on their
 * elements; any other constraint is refused), then passed to {@link #check} for rules a record cannot express
 * (for example a passthrough denylist).
 *
 * @param <C> the connector's configuration record
 */
public interface ConnectorConfigType<C> {

    /** Whether this is a source or a sink section. */
    enum Role {
        SOURCE,
        SINK
    }

    /** {@link Role#SOURCE} or {@link Role#SINK}. */
    Role role();

    /** The key under the section's name, for example {@code kafka}. */
    String key();

    /** The record the section binds to. */
    Class<C> type();

    /**
     * Further checks; each problem's path must start with {@code path} (the section's own path, for example
     * {@code sinks.eu.kafka}). Never include secret values in messages.
     */
    default List<ConfigProblem> check(C config, String path) {
        return List.of();
    }

    /**
     * For a sink connector that can write dead letters: the sink the top-level {@code dead_letter} section
     * describes (its {@link SinkSection#config()} is this type's record). It writes each {@link DeadLetter}'s
     * key, value and headers as they are, and is run in the pipeline's sink pool like any other sink.
     * Building it must not do I/O (it is also called while a configuration is loaded, to check the section);
     * opening its writer may. Empty (the default) when the connector cannot write dead letters.
     */
    default Optional<Sink<DeadLetter, ?>> deadLetterSink(SinkSection section) {
        return Optional.empty();
    }

    /**
     * For a sink connector that can write retry topics: the sink the connector section of the top-level {@code retry}
     * section describes (its {@link SinkSection#config()} is this type's record, with no destination of its own). It
     * writes each {@link RetryLetter}'s key, value and headers to the letter's {@link RetryLetter#topic()}, and is run
     * in the pipeline's sink pool like any other sink. Building it must not do I/O; opening its writer may. Empty (the
     * default) when the connector cannot write retry topics.
     */
    default Optional<Sink<RetryLetter, ?>> retrySink(SinkSection section) {
        return Optional.empty();
    }
}
