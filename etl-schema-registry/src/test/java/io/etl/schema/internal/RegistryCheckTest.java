package io.etl.schema.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.kafka.common.SchemaRegistryConfig;
import io.etl.kafka.common.internal.Finding;
import io.etl.kafka.common.internal.RegistryReadiness;
import io.etl.testkit.schema.SchemaRegistryServer;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What {@code check} reports about a schema_registry block. */
class RegistryCheckTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    @Test
    void shouldBeFoundByTheRuntime() {
        assertThat(RegistryReadiness.installed()).hasAtLeastOneElementOfType(RegistryCheck.class);
    }

    @Test
    void shouldNameAMissingSubjectOfASinkThatDoesNotRegister() {
        try (SchemaRegistryServer registry = SchemaRegistryServer.start()) {
            registry.register("present-value", "AVRO", "\"string\"");
            SchemaRegistryConfig config =
                    SchemaRegistryConfig.custom().url(registry.url()).build();

            List<Finding> missing = new RegistryCheck().check("sinks.ledger.kafka", config, "ledger", TIMEOUT);
            List<Finding> present = new RegistryCheck().check("sinks.ledger.kafka", config, "present", TIMEOUT);
            List<Finding> registering =
                    new RegistryCheck().check("sinks.ledger.kafka", config.withAutoRegister(true), "ledger", TIMEOUT);

            assertThat(missing).filteredOn(Finding::problem).singleElement().satisfies(f -> {
                assertThat(f.path()).isEqualTo("sinks.ledger.kafka.schema_registry");
                assertThat(f.message()).contains("subject 'ledger-value' does not exist");
            });
            assertThat(present).noneMatch(Finding::problem).isNotEmpty();
            assertThat(registering).noneMatch(Finding::problem);
        }
    }

    @Test
    void shouldReportARegistryThatDoesNotAnswer() {
        SchemaRegistryServer registry = SchemaRegistryServer.start();
        String url = registry.url();
        registry.close();

        List<Finding> findings = new RegistryCheck()
                .check("source.in.kafka", SchemaRegistryConfig.custom().url(url).build(), null, TIMEOUT);

        assertThat(findings).singleElement().satisfies(f -> {
            assertThat(f.problem()).isTrue();
            assertThat(f.path()).isEqualTo("source.in.kafka.schema_registry.url");
            assertThat(f.message()).contains("did not answer");
        });
    }
}
