package io.etl.schema.internal;

import io.etl.core.error.ConfigException;
import io.etl.core.error.ConfigProblem;
import io.etl.kafka.common.FormatContext;
import io.etl.kafka.common.SchemaRegistryConfig;
import java.util.List;

/**
 * What a format builds from its connector's settings when the connector opens: the registry client and its
 * meters.
 *
 * @param connector the connector, as messages name it ({@code source 'payments'})
 * @param path      the block's path
 * @param config    the {@code schema_registry} block
 * @param client    the registry client
 * @param metrics   the meters
 */
record RegistryConnection(
        String connector, String path, SchemaRegistryConfig config, RegistryClient client, RegistryMetrics metrics) {

    /** Connects the format {@code format} (for messages: "Avro") to the connector's registry. */
    static RegistryConnection open(FormatContext context, String format) {
        SchemaRegistryConfig config = context.schemaRegistry();
        if (config == null) {
            throw ConfigException.of(
                    context.registryPath(),
                    "is required: " + context.connector() + " uses " + format
                            + " in the schema registry wire format (set schema_registry.url)");
        }
        List<ConfigProblem> problems = config.check(context.registryPath());
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        RegistryMetrics metrics = new RegistryMetrics(context.meterRegistry(), context.tags());
        return new RegistryConnection(
                context.connector(),
                context.registryPath(),
                config,
                new RegistryClient(config, context.registryPath(), metrics),
                metrics);
    }
}
