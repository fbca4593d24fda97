package io.etl.core.config;

import io.etl.core.error.ConfigException;

/**
 * One entry of the {@code sinks} section: its name, the pool settings every sink shares, and its
 * connector's typed configuration (for example the record bound from {@code sinks.eu.kafka}).
 *
 * @param name      the entry's key
 * @param connector the connector key ({@code kafka})
 * @param config    the connector's bound configuration record
 * @param pool      shards, batch, inflight, queue, retry, breaker and on_error
 */
public record SinkSection(String name, String connector, Object config, SinkPoolConfig pool) {

    public SinkSection {
        pool = pool == null ? SinkPoolConfig.defaults() : pool;
    }

    /** The connector configuration as {@code type}, or a {@link ConfigException} naming the section. */
    public <C> C connector(Class<C> type) {
        if (!type.isInstance(config)) {
            throw ConfigException.of(
                    "sinks." + name, "expected a " + type.getSimpleName() + " section but found '" + connector + "'");
        }
        return type.cast(config);
    }
}
