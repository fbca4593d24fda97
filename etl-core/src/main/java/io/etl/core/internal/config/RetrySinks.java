package io.etl.core.internal.config;

import io.etl.core.config.ConnectorConfigType;
import io.etl.core.config.RetrySection;
import io.etl.core.config.SinkSection;
import io.etl.core.error.ConfigException;
import io.etl.core.error.RetryLetter;
import io.etl.core.sink.Sink;

/** Turns the connector section of the {@code retry} section into its connector's retry-topic sink. */
public final class RetrySinks {

    private RetrySinks() {}

    /**
     * The sink for {@code section}, built by the connector registered for its key.
     *
     * @throws ConfigException when no registered connector has that key or it cannot write retry topics
     */
    public static Sink<RetryLetter, ?> create(SinkSection section) {
        String path = RetrySection.NAME + "." + section.connector();
        ConnectorConfigType<?> type = ConnectorRegistry.discovered()
                .find(ConnectorConfigType.Role.SINK, section.connector())
                .orElseThrow(() -> ConfigException.of(
                        path, "no sink connector '" + section.connector() + "' is on the class path"));
        return type.retrySink(section)
                .orElseThrow(() -> ConfigException.of(
                        path, "the " + section.connector() + " connector cannot write retry topics"));
    }
}
