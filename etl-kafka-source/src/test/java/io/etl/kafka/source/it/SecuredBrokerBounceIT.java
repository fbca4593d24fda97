package io.etl.kafka.source.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etl.testkit.BrokerOptions;
import io.etl.testkit.BrokerSecurity;
import io.etl.testkit.ClusterSecurity;
import io.etl.testkit.ForkedKafkaCluster;
import io.etl.testkit.KafkaTestCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pipeline JVM reading and writing over SASL_SSL (SCRAM-SHA-512, its own principal) while its only broker is
 * hard-bounced under load: SIGKILL, then a restart on the same data. Every connection of the pipeline (fetch,
 * group coordinator, produce) dies with the broker and must be opened and authenticated again; the pipeline
 * goes on without a restart of its own, and the audit of {@link FaultAudit} passes.
 */
class SecuredBrokerBounceIT {

    private static final int PARTITIONS = 3;
    private static final String USER = "etl";
    private static final String PASSWORD = "etl-secret";

    @AutoClose
    private static final ForkedKafkaCluster kafka = KafkaTestCluster.forkedSingle(BrokerOptions.builder()
            .security(BrokerSecurity.saslScram().user(USER, PASSWORD).build())
            .build());

    private static final ClusterSecurity security = kafka.security().orElseThrow();

    @RegisterExtension
    final ChildPipelines children = new ChildPipelines();

    @Test
    @Timeout(180)
    void authenticatesAgainAndLosesNothingWhenItsBrokerIsHardBounced(@TempDir Path dir) throws IOException {
        RunTopics t = RunTopics.create(kafka, "saslbounce", PARTITIONS);
        Path yaml = t.yaml(kafka)
                .security("{protocol: SASL_SSL, tls: {ca_file: \"" + security.caCertificatePemPath() + "\"},"
                        + " sasl: {mechanism: SCRAM-SHA-512, username: " + USER + ", password: \"" + PASSWORD + "\"}}")
                .sessionTimeout("6s")
                .pool(4, 4, 500, "5ms")
                .checkpoint("100ms", "10s")
                .write(dir);
        ReplayWindow window = new ReplayWindow(PARTITIONS);
        int produced;
        ChildPipeline pipeline;
        try (CommitWatch commits = CommitWatch.start(kafka, t.group());
                LoadProducer load = LoadProducer.start(kafka, t.input(), PARTITIONS, 1_000_000, 2_000)) {
            pipeline = children.start("copy", yaml, t.uid());
            await().atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> kafka.committedTotal(t.group()) >= 2_000
                                    && load.sent() - kafka.committedTotal(t.group()) < 1_000
                            || !pipeline.isAlive());
            assertThat(pipeline.isAlive())
                    .as("pipeline JVM alive:%n%s", pipeline.tail())
                    .isTrue();

            window.open(kafka, t.group());
            Map<TopicPartition, Long> arrivedBeforeTheBounce = kafka.endOffsets(t.input());
            long killedAt = System.nanoTime();
            kafka.kill9(ForkedKafkaCluster.SINGLE_NODE_ID);
            kafka.restart(ForkedKafkaCluster.SINGLE_NODE_ID);
            long restartedMs = (System.nanoTime() - killedAt) / 1_000_000;
            await().atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(100))
                    .ignoreExceptions()
                    .until(() -> Replicas.committedPast(kafka.committedOffsets(t.group()), arrivedBeforeTheBounce)
                            || !pipeline.isAlive());
            assertThat(pipeline.isAlive())
                    .as("pipeline JVM alive:%n%s", pipeline.tail())
                    .isTrue();
            long size = window.close(kafka, t.input());
            System.out.printf(
                    "SASL_SSL broker bounced: back %d ms after the SIGKILL; everything that arrived before it committed"
                            + " %d ms after the SIGKILL; window %d offsets%n",
                    restartedMs, (System.nanoTime() - killedAt) / 1_000_000, size);

            load.close();
            produced = load.sent();
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> Delivery.caughtUp(kafka, t.group(), t.input()) || !pipeline.isAlive());
            pipeline.stopWithin(Duration.ofSeconds(30));
            assertThat(kafka.endTotal(t.input()))
                    .as("every order sent is in the input")
                    .isEqualTo(produced);
            FaultAudit.assertPasses("SASL_SSL broker bounce", kafka, t.output(), produced, window, commits);
        }
        String log = Files.readString(pipeline.log());
        assertThat(log).as("the pipeline's log").contains("subscribed").doesNotContain(PASSWORD);
        assertThat(log).doesNotContainIgnoringCase("authentication failed");
    }
}
