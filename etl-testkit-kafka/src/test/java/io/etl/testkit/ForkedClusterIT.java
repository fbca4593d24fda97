package io.etl.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.Node;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A separate controller JVM plus three broker JVMs. */
class ForkedClusterIT {

    private static ForkedKafkaCluster kafka;

    @BeforeAll
    static void start() {
        kafka = KafkaTestCluster.forkedCluster(
                3,
                BrokerOptions.builder()
                        .brokerProperty("min.insync.replicas", "2")
                        .build());
    }

    @AfterAll
    static void stop() {
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void keepsAcceptingAcksAllWritesWithOneBrokerKilledAndTakesItBack() throws Exception {
        assertThat(kafka.nodeIds()).containsExactly(0, 1, 2, 3);
        assertThat(kafka.brokerIds()).containsExactly(1, 2, 3);
        assertThat(liveBrokers()).containsExactlyInAnyOrder(1, 2, 3);
        kafka.createTopic("replicated", 3, 3, Map.of());
        kafka.produce("replicated", 1_000, i -> TestRecord.of("k" + i, "before-" + i));

        kafka.kill9(2);
        assertThat(kafka.isAlive(2)).isFalse();
        kafka.produce("replicated", 1_000, i -> TestRecord.of("k" + i, "during-" + i));

        assertThat(kafka.readAll("replicated"))
                .hasSize(2_000)
                .filteredOn(r -> r.valueAsString().startsWith("during-"))
                .hasSize(1_000);

        kafka.restart(2);
        assertThat(liveBrokers()).containsExactlyInAnyOrder(1, 2, 3);
    }

    private static Set<Integer> liveBrokers() throws Exception {
        try (Admin admin = kafka.newAdmin()) {
            return admin.describeCluster().nodes().get().stream().map(Node::id).collect(Collectors.toSet());
        }
    }
}
