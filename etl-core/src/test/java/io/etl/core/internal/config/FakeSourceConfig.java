package io.etl.core.internal.config;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import java.time.Duration;
import java.util.List;

/** A connector record standing in for a real source connector's. */
public record FakeSourceConfig(
        @NotBlank String brokers,
        @NotEmpty List<@NotBlank String> topics,
        String groupId,
        Duration pollTimeout,
        List<Duration> backoffs) {}
