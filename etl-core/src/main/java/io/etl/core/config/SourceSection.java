package io.etl.core.config;

import io.etl.core.error.ConfigException;
import io.etl.core.error.ErrorPolicy;

/**
 * One entry of the {@code source} section: its name, its decode-error policy and its connector's typed
 * configuration (for example the record bound from {@code source.orders.kafka}).
 *
 * @param name      the entry's key
 * @param connector the connector key ({@code kafka})
 * @param config    the connector's bound configuration record
 * @param onError   what to do with a record that fails to decode ({@code on_error} in the connector section)
 */
public record SourceSection(String name, String connector, Object config, ErrorPolicy onError) {

    public static final ErrorPolicy DEFAULT_ON_ERROR = ErrorPolicy.FAIL;

    public SourceSection {
        onError = onError == null ? DEFAULT_ON_ERROR : onError;
    }

    /** The connector configuration as {@code type}, or a {@link ConfigException} naming the section. */
    public <C> C connector(Class<C> type) {
        if (!type.isInstance(config)) {
            throw ConfigException.of(
                    "source." + name, "expected a " + type.getSimpleName() + " section but found '" + connector + "'");
        }
        return type.cast(config);
    }
}
