package io.etl.core.internal.config;

import io.etl.core.config.ConnectorConfigType;
import io.etl.core.config.PipelineConfig;
import io.etl.core.config.SinkSection;
import io.etl.core.error.ConfigException;
import io.etl.core.error.DeadLetter;
import io.etl.core.sink.Sink;

/** Turns the {@code dead_letter} section into its connector's dead-letter sink. */
public final class DeadLetterSinks {

    private DeadLetterSinks() {}

    /**
     * The sink for {@code section}, built by the connector registered for its key.
     *
     * @throws ConfigException when no registered connector has that key or it cannot write dead letters
     */
    public static Sink<DeadLetter, ?> create(SinkSection section) {
        String path = PipelineConfig.DEAD_LETTER + "." + section.connector();
        ConnectorConfigType<?> type = ConnectorRegistry.discovered()
                .find(ConnectorConfigType.Role.SINK, section.connector())
                .orElseThrow(() -> ConfigException.of(
                        path, "no sink connector '" + section.connector() + "' is on the class path"));
        return type.deadLetterSink(section)
                .orElseThrow(() -> ConfigException.of(
                        path, "the " + section.connector() + " connector cannot write dead letters"));
    }
}
