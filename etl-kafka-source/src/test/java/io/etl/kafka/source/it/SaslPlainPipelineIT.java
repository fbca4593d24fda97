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
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * SASL PLAIN inside TLS through the connectors. The kit's SASL_SSL broker offers SCRAM-SHA-512; broker
 * properties add PLAIN, with its users, on the same listener, and the kit keeps using SCRAM for its setup.
 */
class SaslPlainPipelineIT {

    private static final String PASSWORD = "etl-plain-Pa55";
    private static KafkaTestCluster kafka;
    private static ClusterSecurity security;

    @BeforeAll
    static void startBroker() {
        kafka = KafkaTestCluster.embedded(BrokerOptions.builder()
                .security(BrokerSecurity.saslScram().build())
                .brokerProperty("listener.name.client.sasl.enabled.mechanisms", "SCRAM-SHA-512,PLAIN")
                .brokerProperty(
                        "listener.name.client.plain.sasl.jaas.config",
                        "org.apache.kafka.common.security.plain.PlainLoginModule required user_etl=\"" + PASSWORD
                                + "\";")
                .build());
        security = kafka.security().orElseThrow();
    }

    @AfterAll
    static void stopBroker() {
        if (kafka != null) {
            kafka.close();
        }
    }

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
                .hasMessageContaining("User:etl")
                .hasMessageContaining(kafka.bootstrapServers())
                .hasMessageNotContaining("not-the-password");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
    }
}
