package io.etl.kafka.common;

import static io.etl.core.config.ConfigRejection.rejected;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etl.core.config.ConfigRejection;
import io.etl.core.error.ConfigException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The builders of the security and schema registry sections: defaults, copies, a check at every setter, and a
 * check of the whole by every constructor and {@code with...} copy, so that no path builds a section YAML
 * validation would reject.
 */
class CommonConfigBuildersTest {

    private static final String REGISTRY = "http://registry:8081";

    @TempDir
    Path dir;

    @Test
    void customStartsFromTheDefaults() {
        assertThat(KafkaTlsConfig.custom().build())
                .isEqualTo(new KafkaTlsConfig(null, null, null, null, null, null, null, null, null));
        assertThat(KafkaSecurityConfig.custom().build()).isEqualTo(KafkaSecurityConfig.plaintext());
        assertThat(SchemaRegistryCacheConfig.custom().build()).isEqualTo(SchemaRegistryCacheConfig.defaults());
        assertThat(SchemaRegistryConfig.custom().url(REGISTRY).build())
                .isEqualTo(new SchemaRegistryConfig(List.of(REGISTRY), null, null, null, null, null, null, null, null));
        assertThat(KafkaSaslConfig.gssapi("etl@EXAMPLE.COM", keytab(), null, null)
                        .serviceName())
                .isEqualTo(KafkaSaslConfig.DEFAULT_SERVICE_NAME);
    }

    @Test
    void everySetterIsBuiltAndFromKeepsWhatIsNotSetAgain() throws Exception {
        String ca = Files.writeString(dir.resolve("ca.pem"), "CA").toString();
        KafkaTlsConfig tls = KafkaTlsConfig.custom().caFile(ca).build();
        SchemaRegistryCacheConfig cache =
                SchemaRegistryCacheConfig.custom().byId(7).bySchema(9).build();
        SchemaRegistryConfig base = SchemaRegistryConfig.custom()
                .url("https://a:8081", "https://b:8081")
                .basicAuth("etl", "pw")
                .tls(tls)
                .autoRegister(true)
                .useLatestVersion(true)
                .subjectStrategy(SchemaRegistryConfig.SubjectStrategy.RECORD)
                .cache(cache)
                .requestTimeout(Duration.ofSeconds(3))
                .build();

        assertThat(base)
                .isEqualTo(new SchemaRegistryConfig(
                        List.of("https://a:8081", "https://b:8081"),
                        new SchemaRegistryBasicAuth("etl", "pw"),
                        null,
                        tls,
                        true,
                        true,
                        SchemaRegistryConfig.SubjectStrategy.RECORD,
                        new SchemaRegistryCacheConfig(7, 9),
                        Duration.ofSeconds(3)));
        SchemaRegistryConfig copy = base.withAutoRegister(false);
        assertThat(copy.autoRegister()).isFalse();
        assertThat(copy)
                .isEqualTo(SchemaRegistryConfig.from(base).autoRegister(false).build());
        assertThat(copy.basicAuth()).isEqualTo(base.basicAuth());
        assertThat(copy.cache()).isEqualTo(cache);
        assertThat(KafkaSecurityConfig.from(KafkaSecurityConfig.saslSsl(KafkaSaslConfig.plain("u", "p"), null))
                        .protocol(SecurityProtocol.SASL_PLAINTEXT)
                        .build()
                        .sasl())
                .isEqualTo(KafkaSaslConfig.plain("u", "p"));
    }

    static Stream<ConfigRejection> settingsOutOfRange() {
        return Stream.of(
                rejected(
                        () -> KafkaTlsConfig.custom().caFile("/nope/ca.pem"), "ca_file: cannot read file /nope/ca.pem"),
                rejected(
                        () -> KafkaSaslConfig.custom().keytabFile("/nope/etl.keytab"),
                        "keytab_file: cannot read file /nope/etl.keytab"),
                rejected(
                        () -> KafkaSaslConfig.custom().tokenEndpointUrl("ftp://idp/token"),
                        "token_endpoint_url: expected an https (or http, or file) URL such as"
                                + " https://idp.example.com/oauth2/token"),
                rejected(
                        () -> SchemaRegistryConfig.custom().url("ftp://registry"),
                        "url: must be an http:// or https:// URL; got 'ftp://registry'"),
                rejected(() -> SchemaRegistryConfig.custom().url(REGISTRY, " "), "url[1]: must not be blank"),
                rejected(
                        () -> SchemaRegistryConfig.custom().requestTimeout(Duration.ZERO),
                        "request_timeout: must be at least 1ms"),
                rejected(
                        () -> SchemaRegistryConfig.custom().bearerToken(" "),
                        "bearer_token: must not be blank when set"),
                rejected(
                        () -> SchemaRegistryConfig.custom()
                                .tls(KafkaTlsConfig.custom()
                                        .endpointIdentification(false)
                                        .build()),
                        "tls.endpoint_identification: cannot be switched off for the schema registry: its certificate"
                                + " must name its host"),
                rejected(() -> SchemaRegistryCacheConfig.custom().byId(0), "by_id: must be greater than or equal to 1"),
                rejected(() -> SchemaRegistryBasicAuth.custom().user(" "), "user: must not be blank"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("settingsOutOfRange")
    void rejectsSettingOutOfRangeWithTheYamlMessage(ConfigRejection rejection) {
        rejection.assertRejected();
    }

    static Stream<ConfigRejection> pathsAroundTheBuilder() {
        SchemaRegistryConfig registry =
                SchemaRegistryConfig.custom().url(REGISTRY).build();
        return Stream.of(
                rejected(
                        () -> new KafkaTlsConfig(null, null, null, null, null, "pw", null, null, null),
                        "truststore_password: is only used with truststore_file"),
                rejected(
                        () -> new KafkaSaslConfig(
                                SaslMechanism.SCRAM_SHA_256,
                                "u",
                                null,
                                null,
                                null,
                                null,
                                null,
                                null,
                                null,
                                null,
                                null,
                                null,
                                null,
                                null,
                                null),
                        "password: is required with mechanism SCRAM-SHA-256"),
                rejected(
                        () -> KafkaSaslConfig.custom()
                                .mechanism(SaslMechanism.GSSAPI)
                                .principal("etl@EXAMPLE.COM")
                                .build(),
                        "keytab_file: is required with mechanism GSSAPI"),
                rejected(
                        () -> new KafkaSecurityConfig(SecurityProtocol.SSL, null, KafkaSaslConfig.plain("u", "p")),
                        "sasl: needs protocol SASL_SSL or SASL_PLAINTEXT (protocol is SSL)"),
                rejected(
                        () -> KafkaSecurityConfig.custom()
                                .tls(KafkaTlsConfig.custom().build())
                                .build(),
                        "tls: needs protocol SSL or SASL_SSL (protocol is PLAINTEXT)"),
                rejected(
                        () -> new SchemaRegistryConfig(null, null, null, null, null, null, null, null, null),
                        "url: is required: the registry's URL, or a list of them"),
                rejected(() -> new SchemaRegistryCacheConfig(0, null), "by_id: must be greater than or equal to 1"),
                rejected(() -> new SchemaRegistryBasicAuth("", "pw"), "user: must not be blank"),
                rejected(() -> registry.withRequestTimeout(Duration.ZERO), "request_timeout: must be at least 1ms"),
                rejected(() -> registry.withBasicAuth(" ", "pw"), "user: must not be blank"),
                rejected(
                        () -> SchemaRegistryConfig.from(registry)
                                .bearerToken("token")
                                .build()
                                .withBasicAuth("etl", "pw"),
                        "bearer_token: set either basic_auth or bearer_token, not both"),
                rejected(
                        () -> SchemaRegistryConfig.from(registry)
                                .tls(KafkaTlsConfig.custom().build())
                                .build(),
                        "tls: is only used with https:// URLs"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pathsAroundTheBuilder")
    void constructorsAndCopiesRejectWhatTheBuilderRejects(ConfigRejection rejection) {
        rejection.assertRejected();
    }

    @Test
    void aConstructorListsEveryProblemOfItsSection() {
        assertThatThrownBy(() -> new KafkaSaslConfig(
                        SaslMechanism.OAUTHBEARER,
                        "u",
                        null,
                        null,
                        "etl",
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null))
                .isInstanceOfSatisfying(
                        ConfigException.class,
                        e -> assertThat(e.problems())
                                .extracting(Object::toString)
                                .containsExactly(
                                        "username: is not used with mechanism OAUTHBEARER",
                                        "token_endpoint_url: is required with mechanism OAUTHBEARER",
                                        "client_secret: is required with mechanism OAUTHBEARER"));
    }

    private String keytab() {
        try {
            return Files.writeString(dir.resolve("etl.keytab"), "KEYS").toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
