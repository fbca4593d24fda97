package io.etl.core.config;

import io.etl.core.error.ConfigProblem;
import java.util.List;

/**
 * Extension point through which a connector module adds its typed sub-section to the configuration,
 * without the core knowing it. Registered with {@link java.util.ServiceLoader} (a
 * {@code META-INF/services/io.etl.core.config.ConnectorConfigType} file).
 *
 * <p>For a sink, the shared pool keys ({@link SinkPoolConfig#KEYS}) are taken out of the connector
 * section by the core; for a source, {@code on_error}. The remaining keys are bound to {@link #type()}
 * strictly (unknown keys are problems with their full path), validated with Bean Validation, then passed
 * to {@link #check} for rules a record cannot express (for example a passthrough denylist).
 *
 * @param <C> the connector's configuration record
 */
public interface ConnectorConfigType<C> {

    /** Whether this is a source or a sink section. */
    enum Role { SOURCE, SINK }

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
}
