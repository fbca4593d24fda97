package io.etl.kafka.source.it;

import io.etl.core.config.PipelineConfig;
import io.etl.testkit.BrokerOptions;
import io.etl.testkit.BrokerSecurity;
import io.etl.testkit.ClusterSecurity;
import io.etl.testkit.KafkaTestCluster;
import java.time.Duration;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * SASL PLAIN inside TLS through the connectors. The kit's SASL_SSL broker offers SCRAM-SHA-512; broker
 * properties add PLAIN, with its users, on the same listener, and the kit keeps using SCRAM for its setup.
 */
class SaslPlainPipelineIT {

    private static final String PASSWORD = "etl-plain-Pa55";

    @AutoClose
    private static final KafkaTestCluster kafka = KafkaTestCluster.embedded(BrokerOptions.builder()
            .security(BrokerSecurity.saslScram().build())
            .brokerProperty("listener.name.client.sasl.enabled.mechanisms", "SCRAM-SHA-512,PLAIN")
            .brokerProperty(
                    "listener.name.client.plain.sasl.jaas.config",
                    "org.apache.kafka.common.security.plain.PlainLoginModule required user_etl=\"" + PASSWORD + "\";")
            .build());

    private static final ClusterSecurity security = kafka.security().orElseThrow();

    private static String plain(String password) {
        return "{protocol: SASL_SSL, tls: {ca_file: \"%s\"}, sasl: {mechanism: PLAIN, username: etl, password: \"%s\"}}"
                .formatted(security.caCertificatePemPath(), password);
    }

    @Test
    @Timeout(60)
    void copiesWithPlainCredentialsOverTls() {
        SecuredPipelines.copiesEveryRecord(kafka, plain(PASSWORD), 200);
    }

    @Test
    @Timeout(30)
    void failsFastNamingThePrincipalOnAWrongPassword() {
        PipelineConfig config = SecuredPipelines.config(
                kafka.bootstrapServers(), "any", "any", Delivery.unique("g"), plain("not-the-password"));

        StartupFailures.assertCopyFailsWithin(config, Duration.ofSeconds(10))
                .hasMessageContaining(".kafka.security")
                .hasMessageContaining("User:etl")
                .hasMessageContaining(kafka.bootstrapServers())
                .hasMessageNotContaining("not-the-password");
    }
}
