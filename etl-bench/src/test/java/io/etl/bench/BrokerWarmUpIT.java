package io.etl.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etl.bench.orders.BenchOrders;
import io.etl.testkit.EmbeddedKafka;
import io.etl.testkit.KafkaTestCluster;
import java.time.Duration;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;

@EmbeddedKafka(shared = true)
class BrokerWarmUpIT {

    private static final int ORDERS = 2_000;

    @Test
    void splitsEveryOrderThroughTheBrokerAndDeletesItsTopics(KafkaTestCluster kafka) throws Exception {
        long outputs = BrokerWarmUp.run(kafka, ORDERS);

        assertThat(outputs).isEqualTo(BenchOrders.expectedOutputs(ORDERS));
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(topics(kafka)).noneMatch(t -> t.startsWith("broker-warm-up-")));
    }

    @Test
    void doesNothingWhenToldToWarmUpWithNoOrders(KafkaTestCluster kafka) throws Exception {
        Set<String> before = topics(kafka);

        assertThat(BrokerWarmUp.run(kafka, 0)).isZero();
        assertThat(topics(kafka)).noneMatch(t -> t.startsWith("broker-warm-up-") && !before.contains(t));
    }

    private static Set<String> topics(KafkaTestCluster kafka) throws Exception {
        try (Admin admin = kafka.newAdmin()) {
            return admin.listTopics().names().get();
        }
    }
}
