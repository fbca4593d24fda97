package io.etl.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etl.core.config.PipelineConfig;
import io.etl.core.error.ConfigException;
import io.etl.core.error.ConfigProblem;
import io.etl.core.internal.config.AsBound;
import io.etl.kafka.common.KafkaTlsConfig;
import io.etl.kafka.common.SchemaRegistryBasicAuth;
import io.etl.kafka.common.SchemaRegistryCacheConfig;
import io.etl.kafka.common.SchemaRegistryConfig;
import io.etl.kafka.common.SchemaRegistryConfig.SubjectStrategy;
import io.etl.kafka.sink.KafkaSinkConfig;
import io.etl.kafka.source.KafkaSourceConfig;
import io.etl.testkit.docs.ConfigDocumentation;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SchemaRegistryConfigTest {

    private static PipelineConfig parse(String sourceRegistry, String sinkRegistry) {
        return PipelineConfig.parse(
                """
                source:
                  in:
                    kafka:
                      brokers: localhost:9092
                      topics: [payments]
                      group_id: g
                      schema_registry:
                %s
                sinks:
                  out:
                    kafka:
                      brokers: localhost:9092
                      topic: ledger
                      schema_registry:
                %s
                """.formatted(
                                sourceRegistry.indent(8).stripTrailing(),
                                sinkRegistry.indent(8).stripTrailing()),
                Map.of("REGISTRY_PASSWORD", "s3cret-pw", "REGISTRY_TOKEN", "t0ken")::get);
    }

    @Test
    void shouldBindOneUrlOrAListWithDefaults() {
        PipelineConfig config = parse("url: http://registry:8081", """
                url: [https://a:8081, https://b:8081]
                auto_register: true
                subject_strategy: topic_record
                cache: {by_id: 10}
                request_timeout: 2s
                """);

        SchemaRegistryConfig source =
                config.source("in").connector(KafkaSourceConfig.class).schemaRegistry();
        SchemaRegistryConfig sink =
                config.sink("out").connector(KafkaSinkConfig.class).schemaRegistry();

        assertThat(source.url()).containsExactly("http://registry:8081");
        assertThat(source.autoRegister())
                .isEqualTo(SchemaRegistryConfig.DEFAULT_AUTO_REGISTER)
                .isFalse();
        assertThat(source.subjectStrategy()).isEqualTo(SubjectStrategy.TOPIC);
        assertThat(source.requestTimeout()).isEqualTo(SchemaRegistryConfig.DEFAULT_REQUEST_TIMEOUT);
        assertThat(sink.url()).containsExactly("https://a:8081", "https://b:8081");
        assertThat(sink.autoRegister()).isTrue();
        assertThat(sink.subjectStrategy()).isEqualTo(SubjectStrategy.TOPIC_RECORD);
        assertThat(sink.cache().byId()).isEqualTo(10);
        assertThat(sink.cache().bySchema()).isEqualTo(SchemaRegistryCacheConfig.DEFAULT_BY_SCHEMA);
        assertThat(sink.requestTimeout()).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void shouldRejectAnUnknownKeyWithItsPath() {
        assertThatThrownBy(() -> parse("urls: http://registry:8081", "url: http://registry:8081"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("source.in.kafka.schema_registry.urls");
    }

    @Test
    void shouldNeverPrintSecrets() {
        PipelineConfig config = parse(
                "{url: http://registry:8081, basic_auth: {user: etl, password: \"${REGISTRY_PASSWORD}\"}}",
                "{url: http://registry:8081, bearer_token: \"${REGISTRY_TOKEN}\"}");

        SchemaRegistryConfig source =
                config.source("in").connector(KafkaSourceConfig.class).schemaRegistry();
        SchemaRegistryConfig sink =
                config.sink("out").connector(KafkaSinkConfig.class).schemaRegistry();

        assertThat(source.basicAuth().password()).isEqualTo("s3cret-pw");
        assertThat(source.toString()).contains("user=etl").doesNotContain("s3cret-pw");
        assertThat(sink.bearerToken()).isEqualTo("t0ken");
        assertThat(sink.toString()).doesNotContain("t0ken");
        assertThat(config.source("in").connector(KafkaSourceConfig.class).toString())
                .doesNotContain("s3cret-pw");
    }

    @Test
    void shouldNameEveryOfflineProblemWithItsKey() {
        // as a file may hold it: the loader checks it with check(path), as here
        SchemaRegistryConfig bad = AsBound.record(() -> new SchemaRegistryConfig(
                List.of("ftp://registry", "http://user:pw@registry:8081"),
                new SchemaRegistryBasicAuth("etl", "pw"),
                "token",
                new KafkaTlsConfig("/no/such/ca.pem", null, null, null, null, null, null, null, null),
                null,
                null,
                null,
                null,
                Duration.ZERO));

        assertThat(bad.check("sinks.out.kafka.schema_registry"))
                .extracting(ConfigProblem::path)
                .contains(
                        "sinks.out.kafka.schema_registry.url[0]",
                        "sinks.out.kafka.schema_registry.url[1]",
                        "sinks.out.kafka.schema_registry.bearer_token",
                        "sinks.out.kafka.schema_registry.tls",
                        "sinks.out.kafka.schema_registry.tls.ca_file",
                        "sinks.out.kafka.schema_registry.request_timeout");
    }

    @Test
    void shouldRejectABadUrlWhenTheSectionLoads() {
        assertThatThrownBy(() -> parse("url: registry:8081", "url: http://registry:8081"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("source.in.kafka.schema_registry.url")
                .hasMessageContaining("http:// or https://");
    }

    @ParameterizedTest
    @ValueSource(classes = {SchemaRegistryConfig.class, SchemaRegistryBasicAuth.class, SchemaRegistryCacheConfig.class})
    @SuppressWarnings("unchecked")
    void everyKeyIsDocumented(Class<?> record) {
        assertThat(ConfigDocumentation.undocumentedKeys(
                        Path.of("..", "docs", "configuration.md"), (Class<? extends Record>) record))
                .isEmpty();
    }
}
