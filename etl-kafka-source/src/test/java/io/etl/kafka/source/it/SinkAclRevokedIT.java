package io.etl.kafka.source.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etl.core.config.CheckpointConfig;
import io.etl.testkit.BrokerOptions;
import io.etl.testkit.BrokerSecurity;
import io.etl.testkit.ClusterSecurity;
import io.etl.testkit.KafkaTestCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sink's principal loses its WRITE permission on the output topic while the pipeline (a child JVM,
 * SCRAM over TLS, Kafka's {@code StandardAuthorizer}) runs under load: it fails fast with an error naming
 * the principal, the topic and the operation, exits 1, and never commits an offset whose output the brokers
 * did not acknowledge.
 */
class SinkAclRevokedIT {

    private static final int PARTITIONS = 3;
    private static final String USER = "etl";
    private static final String PASSWORD = "etl-secret";

    @AutoClose
    private static final KafkaTestCluster kafka = KafkaTestCluster.embedded(BrokerOptions.builder()
            .security(BrokerSecurity.scramWithAcls(Map.of(USER, PASSWORD)))
            .build());

    private static final ClusterSecurity security = kafka.security().orElseThrow();

    @Test
    @Timeout(120)
    void failsFastNamingPrincipalTopicAndOperationAndCommitsNothingUnacknowledgedWhenWriteIsRevoked(@TempDir Path dir)
            throws IOException {
        RunTopics t = RunTopics.create(kafka, "acl", PARTITIONS);
        security.allowTopic(USER, t.input(), AclOperation.READ, AclOperation.DESCRIBE);
        security.allowGroup(USER, t.group());
        security.allowTopic(USER, t.output(), AclOperation.WRITE, AclOperation.DESCRIBE, AclOperation.DESCRIBE_CONFIGS);
        PipelineYaml pipelineYaml = t.yaml(kafka)
                .security("{protocol: SASL_SSL, tls: {ca_file: \"" + security.caCertificatePemPath() + "\"},"
                        + " sasl: {mechanism: SCRAM-SHA-512, username: " + USER + ", password: \"" + PASSWORD + "\"}}")
                .pool(2, 2, 500, "5ms")
                .checkpoint("100ms", "10s")
                .stalledFailAfter("3s");
        Path yaml = pipelineYaml.write(dir);
        CheckpointConfig checkpoint = pipelineYaml.parse().checkpoint();
        // a fatal batch fails the run once its partition has been stuck for stalled_fail_after; then it drains
        long failBoundMs =
                checkpoint.stalledFailAfter().plus(checkpoint.drainTimeout()).toMillis();

        long revokedAt;
        int exit;
        try (LoadProducer load = LoadProducer.start(kafka, t.input(), PARTITIONS, 60_000, 2_000);
                ChildPipeline pipeline =
                        ChildPipeline.start("copy", yaml, Path.of("target", "it-logs", t.uid() + ".log"))) {
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> kafka.committedTotal(t.group()) >= 3_000 || !pipeline.isAlive());
            assertThat(pipeline.isAlive())
                    .as("pipeline exited early:%n%s", pipeline.tail())
                    .isTrue();

            security.revoke(USER, AclOperation.WRITE, ResourceType.TOPIC, t.output());
            revokedAt = System.nanoTime();
            exit = pipeline.waitFor(Duration.ofSeconds(60));
            long tookMs = (System.nanoTime() - revokedAt) / 1_000_000;
            String log = Files.readString(pipeline.log());
            System.out.printf("WRITE revoked: exit %d after %d ms, %d orders produced%n", exit, tookMs, load.sent());
            assertThat(exit)
                    .as("exit code after losing WRITE:%n%s", pipeline.tail())
                    .isEqualTo(1);
            assertThat(tookMs)
                    .as("fails within stalled_fail_after plus the drain")
                    .isLessThan(failBoundMs);
            assertThat(log)
                    .as("the error names principal, topic and operation")
                    .containsPattern(
                            "principal User:" + USER + " is not authorized to write to topic '" + t.output() + "'");
        }

        Map<TopicPartition, Long> committed = kafka.committedOffsets(t.group());
        Map<String, Integer> out = Delivery.idCounts(kafka, t.output());
        long total = Delivery.assertCommittedIsWritten(committed, out, PARTITIONS, "after WRITE was revoked");
        long inputTotal = kafka.endTotal(t.input());
        System.out.printf("WRITE revoked: %d committed, %d written, %d in the input%n", total, out.size(), inputTotal);
        assertThat(total).as("the offsets of unwritten input stay uncommitted").isLessThan(inputTotal);
    }
}
