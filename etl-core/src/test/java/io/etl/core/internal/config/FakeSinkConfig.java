package io.etl.core.internal.config;

import io.etl.core.config.DataSize;
import io.etl.core.config.RenamedFrom;
import jakarta.validation.constraints.NotBlank;
import java.time.Duration;
import java.util.Map;

/** A connector record standing in for a real sink connector's (with a renamed key, as real ones may have). */
public record FakeSinkConfig(
        @NotBlank String brokers,
        @NotBlank String topic,
        DataSize maxMessageBytes,
        @RenamedFrom({"timeout", "request_timeout_ms"}) Duration requestTimeout,
        String saslPassword,
        Map<String, String> producer) {

    public FakeSinkConfig {
        producer = producer == null ? Map.of() : Map.copyOf(producer);
    }
}
