package io.etl.kafka.source.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.core.PipelineResult;
import io.etl.core.config.PipelineConfig;
import io.etl.core.error.ConfigException;
import io.etl.testkit.BrokerOptions;
import io.etl.testkit.BrokerSecurity;
import io.etl.testkit.ClusterSecurity;
import io.etl.testkit.KafkaTestCluster;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mutual TLS through the connectors: a Kafka source and a Kafka sink, both configured with the typed
 * {@code security.tls} section, against a broker that requires client certificates; once with PKCS12
 * stores, once with PEM files, and once without a certificate.
 */
class MutualTlsPipelineIT {

    @TempDir
    static Path dir;

    private static KafkaTestCluster kafka;
    private static ClusterSecurity security;
    private static Map<String, String> etl;

    @BeforeAll
    static void startBroker() {
        kafka = KafkaTestCluster.embedded(BrokerOptions.builder()
                .security(BrokerSecurity.mutualTls().user("etl").build())
                .build());
        security = kafka.security().orElseThrow();
        etl = security.clientProperties("etl");
    }

    @AfterAll
    static void stopBroker() {
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    @Timeout(60)
    void copiesWithPkcs12TrustAndKeyStores() {
        String tls =
                "{protocol: SSL, tls: {truststore_file: \"%s\", truststore_password: \"%s\", keystore_file: \"%s\", keystore_password: \"%s\"}}"
                        .formatted(
                                security.truststorePath(),
                                security.truststorePassword(),
                                etl.get("ssl.keystore.location"),
                                etl.get("ssl.keystore.password"));
        assertThat(etl.get("ssl.keystore.location")).endsWith(".p12");
        SecuredPipelines.copiesEveryRecord(kafka, tls, 200);
    }

    @Test
    @Timeout(60)
    void copiesWithPemCaCertificateAndKey() throws Exception {
        Path[] pem = SecuredPipelines.toPem(
                Path.of(etl.get("ssl.keystore.location")), etl.get("ssl.keystore.password"), dir, "etl");
        String tls = "{protocol: SSL, tls: {ca_file: \"%s\", cert_file: \"%s\", key_file: \"%s\"}}"
                .formatted(security.caCertificatePemPath(), pem[0], pem[1]);
        SecuredPipelines.copiesEveryRecord(kafka, tls, 200);
    }

    @Test
    @Timeout(30)
    void failsFastWithoutAClientCertificate() {
        String tls = "{protocol: SSL, tls: {ca_file: \"%s\"}}".formatted(security.caCertificatePemPath());
        PipelineConfig config =
                SecuredPipelines.config(kafka.bootstrapServers(), "any", "any", Delivery.unique("g"), tls);
        long started = System.nanoTime();

        PipelineResult result = Pipelines.copy(config)
                .start(config, new SimpleMeterRegistry())
                .result()
                .orTimeout(20, TimeUnit.SECONDS)
                .join();

        assertThat(result.status()).isEqualTo(PipelineResult.Status.FAILED);
        assertThat(result.failure())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(".kafka.security")
                .hasMessageContaining("TLS handshake")
                .hasMessageContaining(kafka.bootstrapServers());
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
    }
}
