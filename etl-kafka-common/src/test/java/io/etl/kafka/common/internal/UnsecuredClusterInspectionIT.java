package io.etl.kafka.common.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.testkit.EmbeddedKafka;
import io.etl.testkit.KafkaTestCluster;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** A broker without an authorizer grants every operation: only existence and sizes can make it not ready. */
@EmbeddedKafka(shared = true)
class UnsecuredClusterInspectionIT {

    @Test
    void brokerWithoutAuthorizerIsReadyForExistingTopics(KafkaTestCluster kafka) {
        String in = "in-" + UUID.randomUUID();
        String out = "out-" + UUID.randomUUID();
        kafka.createTopic(in, 2);
        kafka.createTopic(out, 1);
        Map<String, Object> props = Map.of("bootstrap.servers", kafka.bootstrapServers());

        ReadinessReport report = ClusterInspection.inspect(
                List.of(
                        ClusterUse.read("source.orders.kafka", props, in, "g-" + UUID.randomUUID()),
                        ClusterUse.write("sinks.eu.kafka", props, out, 1_000_000)),
                Duration.ofSeconds(20));

        assertThat(report.problems()).isEmpty();
        assertThat(report.notes())
                .extracting(Finding::toString)
                .contains(
                        "source.orders.kafka.topics: topic '" + in + "' has 2 partition(s)",
                        "sinks.eu.kafka.topic: topic '" + out + "' has 1 partition(s)");
    }

    @Test
    void brokerDefaultMaxMessageBytesBelowTheGuardIsNamed(KafkaTestCluster kafka) {
        String out = "out-" + UUID.randomUUID();
        kafka.createTopic(out, 1);
        Map<String, Object> props = Map.of("bootstrap.servers", kafka.bootstrapServers());

        ReadinessReport report = ClusterInspection.inspect(
                List.of(ClusterUse.write("sinks.big.kafka", props, out, 8 * 1024 * 1024)), Duration.ofSeconds(20));

        assertThat(report.problems()).singleElement().satisfies(p -> {
            assertThat(p.path()).isEqualTo("sinks.big.kafka.max_message_bytes");
            assertThat(p.message()).contains("topic '" + out + "'", "the broker");
        });
    }
}
