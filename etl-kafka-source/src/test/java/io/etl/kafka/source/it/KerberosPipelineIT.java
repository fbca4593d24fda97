package io.etl.kafka.source.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.core.PipelineResult;
import io.etl.core.RunningPipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.testkit.BrokerOptions;
import io.etl.testkit.ForkedKafkaCluster;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.KerberosListener;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * GSSAPI end to end: a KDC in this JVM (Apache Kerby), a forked broker with a SASL_PLAINTEXT/GSSAPI listener,
 * and a pipeline whose Kafka source and Kafka sink both log in with the typed {@code security.sasl} section.
 */
class KerberosPipelineIT {

    private static final String CLIENT = "etl@" + TestKdc.REALM;

    @TempDir
    static Path dir;

    private static TestKdc kdc;
    private static ForkedKafkaCluster kafka;
    private static Path clientKeytab;

    @BeforeAll
    static void startKdcAndBroker() {
        kdc = TestKdc.start(dir);
        String brokerPrincipal = "kafka/" + KerberosListener.ADVERTISED_HOST + "@" + TestKdc.REALM;
        Path brokerKeytab = kdc.principalWithKeytab(brokerPrincipal, "kafka.keytab");
        clientKeytab = kdc.principalWithKeytab(CLIENT, "etl.keytab");
        kafka = KafkaTestCluster.forkedSingle(BrokerOptions.builder()
                .kerberos(new KerberosListener(kdc.krb5Conf(), brokerKeytab, brokerPrincipal, "kafka"))
                .build());
    }

    @AfterAll
    static void stop() {
        if (kafka != null) {
            kafka.close();
        }
        if (kdc != null) {
            kdc.close();
        }
    }

    private static String gssapi(String principal) {
        return gssapi(principal, clientKeytab);
    }

    private static String gssapi(String principal, Path keytab) {
        return "{protocol: SASL_PLAINTEXT, sasl: {mechanism: GSSAPI, principal: \"%s\", keytab_file: \"%s\", krb5_config_file: \"%s\"}}"
                .formatted(principal, keytab, kdc.krb5Conf());
    }

    private static PipelineConfig config(
            String input, String output, String group, String sourcePrincipal, String sinkPrincipal) {
        return PipelineConfig.parse(
                """
                pipeline: {name: kerberos}
                source:
                  orders:
                    kafka:
                      brokers: "%s"
                      topics: [%s]
                      group_id: %s
                      startup_timeout: 10s
                      security: %s
                sinks:
                  out:
                    kafka:
                      brokers: "%s"
                      topic: %s
                      startup_timeout: 10s
                      security: %s
                checkpoint: {interval: 200ms, drain_timeout: 10s}
                """.formatted(
                                kafka.kerberosBootstrapServers(),
                                input,
                                group,
                                gssapi(sourcePrincipal),
                                kafka.kerberosBootstrapServers(),
                                output,
                                gssapi(sinkPrincipal)),
                n -> null);
    }

    @Test
    @Timeout(90)
    void copiesEveryRecordWithSourceAndSinkLoggedInByKeytab() {
        String input = Delivery.unique("krb-in");
        String output = Delivery.unique("krb-out");
        String group = Delivery.unique("g");
        kafka.createTopic(input, 2);
        kafka.createTopic(output, 2);
        kafka.produce(input, 300, Orders::record);
        PipelineConfig config = config(input, output, group, CLIENT, CLIENT);

        RunningPipeline running = Pipelines.copy(config).start(config, new SimpleMeterRegistry());
        PipelineResult result = Delivery.runUntilCaughtUp(kafka, running, group, input, Duration.ofSeconds(60));

        assertThat(result.status()).as("result %s", result).isEqualTo(PipelineResult.Status.COMPLETED);
        Delivery.assertCopiedAll(kafka, input, output, group, 300);
        assertThat(System.getProperty("java.security.krb5.conf"))
                .isEqualTo(kdc.krb5Conf().toAbsolutePath().toString());
    }

    @Test
    @Timeout(60)
    void failsFastNamingThePrincipalWhenTheKeytabDoesNotHoldIt() {
        String input = Delivery.unique("krb-in");
        kafka.createTopic(input, 1);
        String wrong = "intruder@" + TestKdc.REALM;
        PipelineConfig config = config(input, "unused", Delivery.unique("g"), CLIENT, wrong);

        StartupFailures.assertCopyFailsWithin(config, Duration.ofSeconds(10))
                .hasMessageContaining("sinks.out.kafka.security.sasl.principal")
                .hasMessageContaining(wrong)
                .hasMessageContaining(clientKeytab.toString());
    }

    @Test
    @Timeout(60)
    void failsFastNamingThePrincipalWhenTheKdcDoesNotKnowIt() {
        String ghost = "ghost@" + TestKdc.REALM;
        Path ghostKeytab = kdc.principalWithKeytab(ghost, "ghost.keytab");
        kdc.deletePrincipal(ghost);
        String input = Delivery.unique("krb-in");
        kafka.createTopic(input, 1);
        PipelineConfig config = PipelineConfig.parse(
                """
                source:
                  orders:
                    kafka:
                      brokers: "%s"
                      topics: [%s]
                      group_id: %s
                      startup_timeout: 10s
                      security: %s
                sinks:
                  out: {kafka: {brokers: "%s", topic: %s, security: %s}}
                """.formatted(
                                kafka.kerberosBootstrapServers(),
                                input,
                                Delivery.unique("g"),
                                gssapi(CLIENT),
                                kafka.kerberosBootstrapServers(),
                                input,
                                gssapi(ghost, ghostKeytab)),
                n -> null);

        StartupFailures.assertCopyFailsWithin(config, Duration.ofSeconds(10))
                .hasMessageContaining("sinks.out.kafka.security")
                .hasMessageContaining(ghost);
    }
}
