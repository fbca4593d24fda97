package io.etl.kafka.source.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.core.Pipeline;
import io.etl.core.PipelineResult;
import io.etl.core.RunningPipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.kafka.source.KafkaSource;
import io.etl.testkit.BrokerOptions;
import io.etl.testkit.BrokerSecurity;
import io.etl.testkit.ClusterSecurity;
import io.etl.testkit.KafkaTestCluster;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The typed security section against a SASL_SSL/SCRAM broker: the right password reads, a wrong one fails fast. */
class SecuredSourceIT {

    @AutoClose
    private static final KafkaTestCluster kafka = KafkaTestCluster.embedded(BrokerOptions.builder()
            .security(BrokerSecurity.saslScram().user("etl", "etl-secret").build())
            .build());

    private static final ClusterSecurity security = kafka.security().orElseThrow();

    private static PipelineConfig config(String topic, String group, String password, String protocol) {
        return PipelineConfig.parse(
                """
                source:
                  in:
                    kafka:
                      brokers: "%s"
                      topics: [%s]
                      group_id: %s
                      startup_timeout: 5s
                      security:
                        protocol: %s
                        tls: {ca_file: "%s"}
                        sasl: {mechanism: SCRAM-SHA-512, username: etl, password: "%s"}
                checkpoint: {interval: 200ms, drain_timeout: 10s}
                """.formatted(
                        kafka.bootstrapServers(), topic, group, protocol, security.caCertificatePemPath(), password),
                n -> null);
    }

    private static RunningPipeline start(PipelineConfig config, CollectingSink<String> sink) {
        return Pipeline.named("secured")
                .from(KafkaSource.from(config.source("in")).string())
                .to(sink)
                .start(config, new SimpleMeterRegistry());
    }

    @Test
    @Timeout(60)
    void readsWithTheTypedSecuritySection() {
        String topic = Delivery.unique("secured");
        String group = Delivery.unique("g");
        kafka.createTopic(topic, 2);
        kafka.produce(topic, 500, Orders::record);
        CollectingSink<String> sink = new CollectingSink<>();

        RunningPipeline running = start(config(topic, group, "etl-secret", "SASL_SSL"), sink);
        PipelineResult result = Delivery.runUntilCaughtUp(kafka, running, group, topic, Duration.ofSeconds(40));
        assertThat(result.status()).as("result %s", result).isEqualTo(PipelineResult.Status.COMPLETED);
        assertThat(sink.received).hasSize(500);
    }

    @Test
    @Timeout(30)
    void failsFastWithAClearErrorOnAWrongPassword() {
        StartupFailures.assertFailsWithin(
                        () -> start(
                                config("any", Delivery.unique("g"), "not-the-password", "SASL_SSL"),
                                new CollectingSink<>()),
                        Duration.ofSeconds(10))
                .hasMessageContaining("source.in.kafka.security")
                .hasMessageContaining(kafka.bootstrapServers())
                .hasMessageContaining("authentication")
                .hasMessageNotContaining("not-the-password");
    }

    @Test
    @Timeout(30)
    void failsWithinStartupTimeoutWhenThePlaintextProtocolMeetsATlsListener() {
        PrintStream err = System.err;
        ByteArrayOutputStream logged = new ByteArrayOutputStream();
        System.setErr(new PrintStream(logged, true, StandardCharsets.UTF_8));
        AbstractThrowableAssert<?, ? extends Throwable> failure;
        try {
            failure = StartupFailures.assertFailsWithin(
                    () -> start(
                            PipelineConfig.parse("""
                    source:
                      in:
                        kafka: {brokers: "%s", topics: [any], group_id: g, startup_timeout: 3s}
                    """.formatted(kafka.bootstrapServers()), n -> null),
                            new CollectingSink<>()),
                    Duration.ofSeconds(20));
        } finally {
            System.setErr(err);
        }

        failure.hasMessageContaining(kafka.bootstrapServers())
                .hasMessageContaining("security.protocol")
                .hasMessageContaining("looks like TLS")
                .hasMessageNotContaining("PT");
        String log = logged.toString(StandardCharsets.UTF_8);
        assertThat(log).as("the pipeline logged its failure").contains("pipeline 'secured' failed");
        assertThat(log).doesNotContain("OutOfMemoryError");
    }
}
