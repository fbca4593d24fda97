package io.etl.kafka.source.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.core.config.PipelineConfig;
import io.etl.testkit.BrokerOptions;
import io.etl.testkit.BrokerSecurity;
import io.etl.testkit.ClusterSecurity;
import io.etl.testkit.KafkaTestCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
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

    @AutoClose
    private static final KafkaTestCluster kafka = KafkaTestCluster.embedded(BrokerOptions.builder()
            .security(BrokerSecurity.mutualTls().user("etl").build())
            .build());

    private static final ClusterSecurity security = kafka.security().orElseThrow();
    private static final Map<String, String> etl = security.clientProperties("etl");

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

        StartupFailures.assertCopyFailsWithin(config, Duration.ofSeconds(10))
                .hasMessageContaining(".kafka.security")
                .hasMessageContaining("TLS handshake")
                .hasMessageContaining(kafka.bootstrapServers());
    }
}
