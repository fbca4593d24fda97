package io.etl.testkit.schema;

import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.schema.internal.RegistrySelector;

/**
 * A schema registry for a test, whichever runs it: the kit's own {@link SchemaRegistryServer} (the default, no
 * Docker), a registry someone else runs, or Confluent's {@code confluentinc/cp-schema-registry} image in a
 * Testcontainers container, keeping its schemas in the test's Kafka container.
 *
 * <pre>{@code
 * try (KafkaTestCluster kafka = KafkaTestCluster.fromEnvironment();
 *         TestSchemaRegistry registry = TestSchemaRegistry.fromEnvironment(kafka)) {
 *     config = config.withSchemaRegistry(SchemaRegistryConfig.custom().url(registry.url()).build());
 *     ...
 * }
 * }</pre>
 *
 * <p>{@link #fromEnvironment} chooses as the broker's switch does: {@code SCHEMA_REGISTRY_URL} (or
 * {@code -Detl.test.schema-registry.url}) names a running registry; otherwise
 * {@code -Detl.test.schema-registry=server|testcontainers}, which follows {@code -Detl.test.kafka} when unset (so
 * {@code -Detl.test.kafka=testcontainers} puts both in containers) and is {@code server} by default. The container
 * is used only when {@code org.testcontainers:testcontainers} is on the classpath, Docker answers and the broker
 * itself runs in a container; otherwise a WARN says why and the kit's server starts instead.
 * {@code -Detl.test.schema-registry.image} picks the image. Tests of registry faults (stop, restart, forced
 * statuses) use {@link SchemaRegistryServer} directly.
 */
public interface TestSchemaRegistry extends AutoCloseable {

    /** Where a registry comes from. */
    enum Kind {
        /** The kit's {@link SchemaRegistryServer} in this JVM. */
        SERVER,
        /** A registry someone else runs. */
        EXTERNAL,
        /** Confluent's image in a Testcontainers container. */
        TESTCONTAINERS
    }

    /**
     * The registry the environment asks for; see the class documentation.
     *
     * @param kafka the test's cluster: a registry container keeps its schemas there, so it must be a container too
     * @return a started (or external) registry
     */
    static TestSchemaRegistry fromEnvironment(KafkaTestCluster kafka) {
        return RegistrySelector.fromEnvironment(kafka);
    }

    /** @return what kind of registry this is */
    Kind kind();

    /** @return the base URL clients use, e.g. {@code http://127.0.0.1:8081} */
    String url();

    /** Stops what the kit started; an external registry is left running. Idempotent. */
    @Override
    void close();
}
