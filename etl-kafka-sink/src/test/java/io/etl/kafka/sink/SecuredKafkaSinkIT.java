package io.etl.kafka.sink;

import static io.etl.kafka.sink.SinkIts.runToEnd;
import static io.etl.kafka.sink.SinkIts.unique;
import static org.assertj.core.api.Assertions.assertThat;

import io.etl.core.PipelineResult;
import io.etl.core.RunningPipeline;
import io.etl.core.error.ConfigException;
import io.etl.kafka.common.KafkaSaslConfig;
import io.etl.kafka.common.KafkaSecurityConfig;
import io.etl.kafka.common.KafkaTlsConfig;
import io.etl.testkit.BrokerOptions;
import io.etl.testkit.BrokerSecurity;
import io.etl.testkit.ClusterSecurity;
import io.etl.testkit.KafkaTestCluster;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.acl.AclOperation;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** SASL_SSL + SCRAM with ACLs: typed section, passthrough, wrong password, missing WRITE, no secret in logs. */
class SecuredKafkaSinkIT {

    private static final String PASSWORD = "etl-Pa55word-xyzzy";
    private static final String NOWRITE_PASSWORD = "nowrite-Pa55word-plugh";
    private static final String WRONG_PASSWORD = "wrong-Pa55word-frobozz";

    @AutoClose
    private static final KafkaTestCluster kafka = KafkaTestCluster.embedded(BrokerOptions.builder()
            .brokerProperty("auto.create.topics.enable", "false")
            .security(BrokerSecurity.scramWithAcls(Map.of("etl", PASSWORD, "nowrite", NOWRITE_PASSWORD)))
            .build());

    private static final ClusterSecurity security = kafka.security().orElseThrow();

    private final ByteArrayOutputStream captured = new ByteArrayOutputStream();
    private PrintStream originalErr;

    @BeforeEach
    void captureLogs() {
        originalErr = System.err;
        System.setErr(new PrintStream(new TeeStream(originalErr, captured), true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void restoreLogs() {
        System.err.flush();
        System.setErr(originalErr);
        String logs = captured.toString(StandardCharsets.UTF_8);
        assertThat(logs)
                .as("the test must have logged something, or the next check proves nothing")
                .contains("writing topic");
        assertThat(logs).doesNotContain(PASSWORD, NOWRITE_PASSWORD, WRONG_PASSWORD);
    }

    private static String writableTopic() {
        String topic = unique("secure");
        kafka.createTopic(topic, 1);
        security.allowTopic("etl", topic, AclOperation.WRITE, AclOperation.DESCRIBE);
        security.allowTopic("nowrite", topic, AclOperation.DESCRIBE);
        return topic;
    }

    private static KafkaSecurityConfig typed(String user, String password) {
        return KafkaSecurityConfig.saslSsl(
                KafkaSaslConfig.scramSha512(user, password),
                KafkaTlsConfig.trustingPem(security.caCertificatePemPath().toString()));
    }

    /** The JSON sink {@code secure} writing {@code topic} as {@code user}, through the typed security section. */
    private static KafkaSink<Object> sinkAs(String user, String password, String topic) {
        return sink(KafkaSinkConfig.custom()
                .brokers(kafka.bootstrapServers())
                .topic(topic)
                .build()
                .withSecurity(typed(user, password)));
    }

    private static KafkaSink<Object> sink(KafkaSinkConfig config) {
        return KafkaSink.from("secure", config, null).json();
    }

    @Test
    void typedSecuritySectionWritesOverSaslSslWithScram() {
        String topic = writableTopic();
        ListSource<String> source = ListSource.of("in", List.of("a", "b"));
        PipelineResult result = runToEnd(source, sinkAs("etl", PASSWORD, topic));

        assertThat(result.status()).isEqualTo(PipelineResult.Status.COMPLETED);
        assertThat(kafka.readAll(topic)).extracting(r -> r.valueAsString()).containsExactly("\"a\"", "\"b\"");
    }

    @Test
    void passthroughSecurityPropertiesWriteOverSaslSslWithScram() {
        String topic = writableTopic();
        Map<String, String> props = new LinkedHashMap<>(security.clientProperties("etl", PASSWORD));
        props.remove("bootstrap.servers");
        ListSource<String> source = ListSource.of("in", List.of("c"));
        PipelineResult result = runToEnd(
                source,
                sink(KafkaSinkConfig.custom()
                        .brokers(kafka.bootstrapServers())
                        .topic(topic)
                        .build()
                        .withProducer(props)));

        assertThat(result.status()).isEqualTo(PipelineResult.Status.COMPLETED);
        assertThat(kafka.readAll(topic)).hasSize(1);
    }

    @Test
    void wrongPasswordFailsAtStartupNamingTheBrokersAndPrincipal() {
        String topic = writableTopic();
        ListSource<String> source = ListSource.of("in", List.of("d"));
        RunningPipeline running =
                SinkIts.start(source, sinkAs("etl", WRONG_PASSWORD, topic), new SimpleMeterRegistry());
        PipelineResult result = running.result().join();

        assertThat(result.status()).isEqualTo(PipelineResult.Status.FAILED);
        assertThat(result.failure())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("sinks.secure.kafka.security")
                .hasMessageContaining("authentication to brokers " + kafka.bootstrapServers() + " as User:etl failed")
                .hasMessageNotContaining(WRONG_PASSWORD);
        assertThat(source.polls).hasValue(0);
        assertThat(kafka.readAll(topic)).isEmpty();
    }

    @Test
    void principalWithoutWritePermissionFailsFastAndCommitsNothing() {
        String topic = writableTopic();
        ListSource<String> source = ListSource.of("in", List.of("e", "f", "g"));
        RunningPipeline running =
                SinkIts.start(source, sinkAs("nowrite", NOWRITE_PASSWORD, topic), new SimpleMeterRegistry());
        PipelineResult result = running.result().join();

        assertThat(result.status()).isEqualTo(PipelineResult.Status.FAILED);
        assertThat(result.failure()).hasStackTraceContaining("User:nowrite");
        assertThat(running.committedOffsets().getOrDefault(source.partition(), 0L))
                .isZero();
        assertThat(source.committed().getOrDefault(source.partition(), 0L)).isZero();
        assertThat(kafka.readAll(topic)).isEmpty();
    }

    /** Writes to both streams. */
    private static final class TeeStream extends OutputStream {
        private final OutputStream a;
        private final OutputStream b;

        TeeStream(OutputStream a, OutputStream b) {
            this.a = a;
            this.b = b;
        }

        @Override
        public void write(int c) throws IOException {
            a.write(c);
            synchronized (b) {
                b.write(c);
            }
        }

        @Override
        public void write(byte[] buf, int off, int len) throws IOException {
            a.write(buf, off, len);
            synchronized (b) {
                b.write(buf, off, len);
            }
        }
    }
}
