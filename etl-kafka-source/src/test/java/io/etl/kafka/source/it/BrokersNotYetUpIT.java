package io.etl.kafka.source.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etl.core.PipelineResult;
import io.etl.core.RunningPipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.testkit.ForkedKafkaCluster;
import io.etl.testkit.KafkaTestCluster;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The brokers are not up yet when the pipeline starts: while their port refuses connections it waits for them up
 * to {@code refused_timeout} (within {@code startup_timeout}) of the source and of the sinks, then either starts
 * and processes everything, or fails with an error naming the brokers and the bound.
 */
class BrokersNotYetUpIT {

    private static final int ORDERS = 2_000;

    @AutoClose
    private static final ForkedKafkaCluster kafka = KafkaTestCluster.forkedSingle();

    /** Each test stops the broker; the next one starts it again (after the last, closing the class stops it). */
    @BeforeEach
    void brokerUp() {
        if (!kafka.isAlive(ForkedKafkaCluster.SINGLE_NODE_ID)) {
            kafka.restart(ForkedKafkaCluster.SINGLE_NODE_ID);
        }
    }

    @Test
    @Timeout(180)
    void waitsForBrokersThatComeUpWithinTheStartupBoundAndThenProcessesEverything() {
        RunTopics t = RunTopics.create(kafka, "late", 3);
        kafka.produce(t.input(), ORDERS, Orders::record);
        PipelineConfig config =
                t.yaml(kafka).startupTimeout("90s").refusedTimeout("90s").parse();
        kafka.stop(ForkedKafkaCluster.SINGLE_NODE_ID);

        RunningPipeline running = Pipelines.copy(config).start(config, new SimpleMeterRegistry());
        try {
            await().during(Duration.ofSeconds(2))
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> !running.result().isDone());
            kafka.restart(ForkedKafkaCluster.SINGLE_NODE_ID);

            await().atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> Delivery.caughtUp(kafka, t.group(), t.input())
                            || running.result().isDone());
            assertThat(running.result()).as("the pipeline is still running").isNotDone();
        } finally {
            PipelineResult result = running.stopAndWait(Duration.ofSeconds(40));
            assertThat(result.status()).as("result %s", result).isEqualTo(PipelineResult.Status.COMPLETED);
        }
        assertThat(Delivery.idCounts(kafka, t.output())).hasSize(ORDERS);
    }

    @Test
    @Timeout(60)
    void failsNamingTheBrokersAndTheBoundWhenTheyStayDown() {
        String uid = Delivery.unique("down");
        PipelineConfig config = PipelineYaml.of(uid, kafka.bootstrapServers(), "in-" + uid, "group-" + uid)
                .sink("out", "out-" + uid)
                .startupTimeout("3s")
                .parse();
        kafka.stop(ForkedKafkaCluster.SINGLE_NODE_ID);
        StartupFailures.assertCopyFailsWithin(config, Duration.ofSeconds(20))
                .hasMessageContaining(kafka.bootstrapServers())
                .hasMessageContaining("every address refused TCP connections for 3s");
    }
}
