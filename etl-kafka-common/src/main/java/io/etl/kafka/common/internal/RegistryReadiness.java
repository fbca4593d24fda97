package io.etl.kafka.common.internal;

import io.etl.kafka.common.SchemaRegistryConfig;
import java.time.Duration;
import java.util.List;
import java.util.ServiceLoader;

/**
 * What the runtime's {@code check} asks about a connector's {@code schema_registry} block, implemented by the
 * module that talks to registries ({@code etl-schema-registry}) and found with {@link ServiceLoader}, so the
 * runtime needs no registry client of its own. Without that module on the class path nothing is checked.
 */
public interface RegistryReadiness {

    /**
     * Findings about the registry of the section at {@code path} ({@code sinks.ledger.kafka}): reachable, the
     * credentials accepted and, for a sink that does not register schemas ({@code auto_register: false}) and names
     * its subjects after its topic, the subject of its values present.
     *
     * @param sinkTopic the topic a sink writes, or null for a source
     * @param timeout   bound of the whole check of this section
     */
    List<Finding> check(String path, SchemaRegistryConfig config, String sinkTopic, Duration timeout);

    /** The implementations on the class path. */
    static List<RegistryReadiness> installed() {
        return ServiceLoader.load(RegistryReadiness.class).stream()
                .map(ServiceLoader.Provider::get)
                .toList();
    }

    /** A problem about {@code path}. */
    static Finding problem(String path, String message) {
        return Finding.problem(path, message);
    }

    /** A note about {@code path}. */
    static Finding note(String path, String message) {
        return Finding.note(path, message);
    }
}
