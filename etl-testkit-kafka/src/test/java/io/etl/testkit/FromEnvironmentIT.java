package io.etl.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class FromEnvironmentIT {

    @AfterEach
    void restore() {
        System.clearProperty("etl.test.kafka");
        System.clearProperty("etl.test.kafka.brokers");
    }

    @Test
    void usesTheExternalClusterNamedByTheBrokersPropertyAndStartsNothing() {
        try (KafkaTestCluster embedded = KafkaTestCluster.embedded()) {
            embedded.createTopic("external-view", 1);
            System.setProperty("etl.test.kafka.brokers", embedded.bootstrapServers());
            try (KafkaTestCluster external = KafkaTestCluster.fromEnvironment()) {
                assertThat(external.kind()).isEqualTo(KafkaTestCluster.Kind.EXTERNAL);
                assertThat(external.bootstrapServers()).isEqualTo(embedded.bootstrapServers());
                external.produce("external-view", List.of(TestRecord.of("k", "through-external")));
            }
            // closing the external view leaves the broker running
            assertThat(embedded.readAll("external-view"))
                    .extracting(TestRecord::valueAsString)
                    .containsExactly("through-external");
        }
    }

    @Test
    void fallsBackToTheEmbeddedBrokerWithAReasonWhenTestcontainersCannotRun() throws Exception {
        System.setProperty("etl.test.kafka", "testcontainers");
        String logged = StandardError.during(() -> {
            try (KafkaTestCluster kafka = KafkaTestCluster.fromEnvironment(BrokerOptions.builder()
                    .security(BrokerSecurity.saslScram().build())
                    .build())) {
                // security is something only the kit's own brokers offer, so this falls back everywhere
                assertThat(kafka.kind()).isEqualTo(KafkaTestCluster.Kind.EMBEDDED);
                assertThat(kafka.security()).isPresent();
            }
        });
        assertThat(logged)
                .contains("WARN")
                .contains("testcontainers was asked for")
                .contains("starting the embedded broker instead");
    }

    @Test
    void rejectsAnUnknownMode() {
        System.setProperty("etl.test.kafka", "zookeeper");
        assertThatThrownBy(KafkaTestCluster::fromEnvironment)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("embedded, forked, testcontainers");
    }
}
