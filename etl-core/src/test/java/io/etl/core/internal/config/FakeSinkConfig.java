package io.etl.core.internal.config;

import io.etl.core.config.DataSize;
import jakarta.validation.constraints.NotBlank;
import java.time.Duration;
import java.util.Map;

/** A connector record standing in for a real sink connector's. */
public record FakeSinkConfig(@NotBlank String brokers, @NotBlank String topic, DataSize maxMessageBytes,
                             Duration requestTimeout, String saslPassword, Map<String, String> producer) {

    public FakeSinkConfig {
        producer = producer == null ? Map.of() : Map.copyOf(producer);
    }
}
