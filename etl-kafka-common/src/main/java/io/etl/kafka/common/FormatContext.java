package io.etl.kafka.common;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a Kafka source's decoder or a Kafka sink's encoder gets when its connector opens: the connector's
 * settings that concern formats (its {@code schema_registry} block), its topics, and where to register meters.
 * Formats that need no settings ignore it.
 *
 * @param connector      the connector, as log lines and errors name it: {@code source 'payments'},
 *                       {@code sink 'ledger'}
 * @param path           the connector's section path, {@code source.payments.kafka}
 * @param topics         the topics read (a source subscribed by pattern has none) or the one topic written
 * @param schemaRegistry the {@code schema_registry} block, or null when the section has none
 * @param meterRegistry  where a format registers its meters
 * @param tags           tags every meter of the connector carries ({@code pipeline}, {@code source} or
 *                       {@code sink}, the common tags)
 */
public record FormatContext(
        String connector,
        String path,
        List<String> topics,
        SchemaRegistryConfig schemaRegistry,
        MeterRegistry meterRegistry,
        Tags tags) {

    public FormatContext {
        Objects.requireNonNull(connector, "connector");
        Objects.requireNonNull(path, "path");
        topics = topics == null ? List.of() : List.copyOf(topics);
        Objects.requireNonNull(meterRegistry, "meterRegistry");
        tags = tags == null ? Tags.empty() : tags;
    }

    /** The {@code schema_registry} block, when the section has one. */
    public Optional<SchemaRegistryConfig> registry() {
        return Optional.ofNullable(schemaRegistry);
    }

    /** The path of the {@code schema_registry} block. */
    public String registryPath() {
        return path + ".schema_registry";
    }
}
