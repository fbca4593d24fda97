package io.etl.kafka.common;

import static io.etl.kafka.common.SaslSections.sasl;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etl.core.error.ConfigException;
import io.etl.core.error.ConfigProblem;
import io.etl.core.internal.config.AsBound;
import io.etl.kafka.common.internal.ClientProperties;
import io.etl.kafka.common.internal.SecurityProperties;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.config.types.Password;
import org.apache.kafka.common.security.JaasContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KafkaSecurityConfigTest {

    @TempDir
    Path dir;

    private static List<String> problems(KafkaSecurityConfig config) {
        return config.check("sinks.eu.kafka.security", Set.of()).stream()
                .map(ConfigProblem::toString)
                .toList();
    }

    /** A section as a file may hold it, checked only by {@link KafkaSecurityConfig#check} (as the loader does). */
    private static KafkaSecurityConfig bound(SecurityProtocol protocol, KafkaTlsConfig tls, KafkaSaslConfig sasl) {
        return AsBound.record(() -> new KafkaSecurityConfig(protocol, tls, sasl));
    }

    @Test
    void plaintextByDefault() {
        KafkaSecurityConfig config = new KafkaSecurityConfig(null, null, null);
        assertThat(config.protocol()).isEqualTo(SecurityProtocol.PLAINTEXT);
        assertThat(KafkaSecurityConfig.custom().build()).isEqualTo(config);
        assertThat(SecurityProperties.clientProperties(config, "security"))
                .containsExactly(Map.entry("security.protocol", "PLAINTEXT"));
        assertThat(problems(config)).isEmpty();
    }

    @Test
    void scramBuildsAJaasConfigThatKafkaParsesWithQuotesEscaped() {
        KafkaSecurityConfig config =
                KafkaSecurityConfig.saslSsl(KafkaSaslConfig.scramSha512("etl", "p\"a\\ss word"), null);
        Map<String, Object> props = SecurityProperties.clientProperties(config, "security");
        assertThat(props)
                .containsEntry("sasl.mechanism", "SCRAM-SHA-512")
                .containsEntry("security.protocol", "SASL_SSL");
        var entries = JaasContext.loadClientContext(
                        Map.of("sasl.jaas.config", new Password((String) props.get("sasl.jaas.config"))))
                .configurationEntries();
        assertThat(entries).hasSize(1);
        Map<String, Object> options = Map.copyOf(entries.get(0).getOptions());
        assertThat(options).containsEntry("username", "etl").containsEntry("password", "p\"a\\ss word");
        assertThat(config.principal()).contains("User:etl");
        assertThat(problems(config)).isEmpty();
    }

    @Test
    void toStringNeverShowsSecrets() throws Exception {
        Path truststore = Files.writeString(dir.resolve("t.p12"), "TRUST");
        Path keystore = Files.writeString(dir.resolve("k.p12"), "KEYS");
        KafkaSecurityConfig config = KafkaSecurityConfig.saslSsl(
                KafkaSaslConfig.plain("etl", "sasl-secret"),
                KafkaTlsConfig.custom()
                        .truststoreFile(truststore.toString())
                        .truststorePassword("trust-secret")
                        .keystoreFile(keystore.toString())
                        .keystorePassword("store-secret")
                        .keyPassword("key-secret")
                        .build());
        assertThat(config.toString())
                .doesNotContain("key-secret", "trust-secret", "store-secret", "sasl-secret")
                .contains("etl");
        assertThat(ClientProperties.redacted(SecurityProperties.clientProperties(config, "security"))
                        .toString())
                .doesNotContain("trust-secret", "sasl-secret")
                .contains("SASL_SSL");
    }

    @Test
    void saslNeedsASaslProtocolAndCredentials() {
        assertThat(problems(
                        bound(SecurityProtocol.SSL, null, sasl(SaslMechanism.SCRAM_SHA_256, Map.of("username", "u")))))
                .containsExactly(
                        "sinks.eu.kafka.security.sasl: needs protocol SASL_SSL or SASL_PLAINTEXT (protocol is SSL)",
                        "sinks.eu.kafka.security.sasl.password: is required with mechanism SCRAM-SHA-256");
        assertThat(problems(new KafkaSecurityConfig(SecurityProtocol.SASL_SSL, null, null)))
                .as("the section alone is fine: the passthrough may set SASL")
                .containsExactly("sinks.eu.kafka.security.sasl: is required with protocol SASL_SSL"
                        + " (or set sasl.mechanism and sasl.jaas.config in the client passthrough)");
        assertThat(new KafkaSecurityConfig(SecurityProtocol.SASL_SSL, null, null)
                        .check("p", Set.of("sasl.jaas.config", "sasl.mechanism")))
                .isEmpty();
    }

    @Test
    void oauthNeedsEndpointAndClientCredentials() {
        KafkaSecurityConfig config = KafkaSecurityConfig.saslSsl(
                KafkaSaslConfig.custom()
                        .mechanism(SaslMechanism.OAUTHBEARER)
                        .tokenEndpointUrl("https://idp/token")
                        .clientId("etl")
                        .clientSecret("s3cret")
                        .scope("kafka")
                        .build(),
                null);
        assertThat(problems(config)).isEmpty();
        assertThat(SecurityProperties.clientProperties(config, "security"))
                .containsEntry("sasl.oauthbearer.token.endpoint.url", "https://idp/token")
                .containsEntry("sasl.mechanism", "OAUTHBEARER");
        assertThat((String)
                        SecurityProperties.clientProperties(config, "security").get("sasl.jaas.config"))
                .contains("clientId=\"etl\"", "clientSecret=\"s3cret\"", "scope=\"kafka\"");
        assertThat(problems(bound(
                        SecurityProtocol.SASL_SSL,
                        null,
                        sasl(SaslMechanism.OAUTHBEARER, Map.of("username", "u", "client_id", "etl")))))
                .containsExactly(
                        "sinks.eu.kafka.security.sasl.username: is not used with mechanism OAUTHBEARER",
                        "sinks.eu.kafka.security.sasl.token_endpoint_url: is required with mechanism OAUTHBEARER",
                        "sinks.eu.kafka.security.sasl.client_secret: is required with mechanism OAUTHBEARER");
    }

    @Test
    void theTokenEndpointMustBeAnAbsoluteUrlAndIsNotEchoed() {
        Map<String, String> problemsByUrl = new LinkedHashMap<>();
        for (String url :
                List.of("idp.example.com/token", "https:///token", "ftp://idp/token", "https://idp/to ken?secret=x")) {
            KafkaSecurityConfig config = bound(
                    SecurityProtocol.SASL_SSL,
                    null,
                    sasl(
                            SaslMechanism.OAUTHBEARER,
                            Map.of("token_endpoint_url", url, "client_id", "etl", "client_secret", "s")));
            problemsByUrl.put(url, String.join("\n", problems(config)));
        }

        assertThat(problemsByUrl.values())
                .allSatisfy(p -> assertThat(p).startsWith("sinks.eu.kafka.security.sasl.token_endpoint_url: "))
                .allSatisfy(p -> assertThat(p).doesNotContain("secret=x", "idp.example.com/token:"));
        assertThat(problemsByUrl.get("https:///token")).contains("with a host");
        assertThat(problemsByUrl.get("https://idp/to ken?secret=x")).contains("is not a valid URL");
        for (String fine : List.of("https://idp/token", "http://localhost:8080/token", "file:/run/token.jwt")) {
            assertThat(problems(KafkaSecurityConfig.saslSsl(
                            KafkaSaslConfig.custom()
                                    .mechanism(SaslMechanism.OAUTHBEARER)
                                    .tokenEndpointUrl(fine)
                                    .clientId("etl")
                                    .clientSecret("s")
                                    .build(),
                            null)))
                    .as(fine)
                    .isEmpty();
        }
    }

    @Test
    void mutualTlsNeedsCertificateAndKeyAndReadsPemFiles() throws Exception {
        Path ca = Files.writeString(dir.resolve("ca.pem"), "CA");
        Path cert = Files.writeString(dir.resolve("client.pem"), "CERT");
        Path key = Files.writeString(dir.resolve("client.key"), "KEY");
        assertThat(problems(bound(
                        SecurityProtocol.SSL,
                        AsBound.record(() -> new KafkaTlsConfig(
                                ca.toString(), cert.toString(), null, null, null, null, null, null, null)),
                        null)))
                .containsExactly("sinks.eu.kafka.security.tls.key_file: mutual TLS needs both cert_file and key_file");
        KafkaSecurityConfig mtls = KafkaSecurityConfig.custom()
                .protocol(SecurityProtocol.SSL)
                .tls(KafkaTlsConfig.custom()
                        .caFile(ca.toString())
                        .certFile(cert.toString())
                        .keyFile(key.toString())
                        .endpointIdentification(false)
                        .build())
                .build();
        assertThat(problems(mtls)).isEmpty();
        assertThat(SecurityProperties.clientProperties(mtls, "security"))
                .containsEntry("ssl.truststore.type", "PEM")
                .containsEntry("ssl.truststore.location", ca.toString())
                .containsEntry("ssl.keystore.type", "PEM")
                .containsEntry("ssl.keystore.certificate.chain", "CERT")
                .containsEntry("ssl.keystore.key", "KEY")
                .containsEntry("ssl.endpoint.identification.algorithm", "");
        assertThat(SecurityProperties.clientPropertyKeys(mtls))
                .containsExactlyInAnyOrderElementsOf(
                        SecurityProperties.clientProperties(mtls, "security").keySet());
    }

    @Test
    void tlsOnAPlaintextProtocolAndUnreadableFilesAreProblems() {
        assertThat(problems(bound(
                        SecurityProtocol.PLAINTEXT,
                        AsBound.record(() ->
                                new KafkaTlsConfig("/nope/ca.pem", null, null, null, null, null, null, null, null)),
                        null)))
                .containsExactly(
                        "sinks.eu.kafka.security.tls: needs protocol SSL or SASL_SSL (protocol is PLAINTEXT)",
                        "sinks.eu.kafka.security.tls.ca_file: cannot read file /nope/ca.pem");
    }

    @Test
    void mechanismParsesLeniently() {
        assertThat(SaslMechanism.of("scram_sha_256")).isEqualTo(SaslMechanism.SCRAM_SHA_256);
        assertThat(SaslMechanism.of("PLAIN")).isEqualTo(SaslMechanism.PLAIN);
        assertThat(SaslMechanism.of("gssapi")).isEqualTo(SaslMechanism.GSSAPI);
        assertThat(SaslMechanism.of("AWS_MSK_IAM")).isEqualTo(SaslMechanism.AWS_MSK_IAM);
        assertThat(SaslMechanism.of("aws-msk-iam")).isEqualTo(SaslMechanism.AWS_MSK_IAM);
        assertThatThrownBy(() -> SaslMechanism.of("KERBEROS"))
                .hasMessageContaining("expected one of PLAIN")
                .hasMessageContaining("GSSAPI")
                .hasMessageContaining("AWS_MSK_IAM");
    }

    @Test
    void awsMskIamWithoutItsJarIsAConfigErrorNamingTheArtifact() {
        // this module's test class path deliberately lacks software.amazon.msk:aws-msk-iam-auth
        KafkaSecurityConfig config = bound(
                SecurityProtocol.SASL_SSL,
                null,
                sasl(SaslMechanism.AWS_MSK_IAM, Map.of("aws_role_arn", "arn:aws:iam::123456789012:role/etl")));
        assertThat(problems(config))
                .containsExactly(
                        "sinks.eu.kafka.security.sasl.mechanism: AWS_MSK_IAM needs"
                                + " software.amazon.msk:aws-msk-iam-auth on the class path (class"
                                + " software.amazon.msk.auth.iam.IAMLoginModule not found); add that dependency to the application");
        assertThatThrownBy(() -> SecurityProperties.clientProperties(config, "sinks.eu.kafka.security"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("sinks.eu.kafka.security.sasl.mechanism")
                .hasMessageContaining(KafkaSecurityConfig.AWS_MSK_IAM_ARTIFACT);
    }

    @Test
    void awsMskIamNeedsSaslSslAndRoleOnlyOptionsNeedARole() {
        KafkaSecurityConfig config = bound(
                SecurityProtocol.SASL_PLAINTEXT,
                null,
                sasl(
                        SaslMechanism.AWS_MSK_IAM,
                        Map.of(
                                "username", "u",
                                "aws_role_session_name", "etl-session",
                                "aws_sts_region", "eu-west-1")));
        assertThat(problems(config))
                .contains(
                        "sinks.eu.kafka.security.sasl.username: is not used with mechanism AWS_MSK_IAM",
                        "sinks.eu.kafka.security.sasl.mechanism: AWS_MSK_IAM needs protocol SASL_SSL (protocol is SASL_PLAINTEXT)",
                        "sinks.eu.kafka.security.sasl.aws_role_session_name: is only used with aws_role_arn",
                        "sinks.eu.kafka.security.sasl.aws_sts_region: is only used with aws_role_arn");
    }
}
