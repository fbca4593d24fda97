package io.etl.bench.enrich;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etl.examples.enrich.EnrichedOrder;
import io.etl.examples.enrich.OrderEvent;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class EnrichRaceOptionsTest {

    @Test
    void defaultsAreTheDocumentedRace() {
        EnrichRace.Options o = EnrichRace.Options.parse("--parallel-consumer-kafka-clients", "kafka-clients-3.9.1.jar");

        assertThat(o.records()).isEqualTo(200_000);
        assertThat(o.partitions()).isEqualTo(6);
        assertThat(o.keys()).isEqualTo(1_000);
        assertThat(o.latencyMillis()).isEqualTo(20);
        assertThat(o.concurrency()).isEqualTo(200);
        assertThat(o.contestants()).containsExactlyElementsOf(EnrichRace.CONTESTANTS);
        assertThat(o.jvmArgs())
                .containsExactly(
                        "-Xmx512m", "-XX:+UseSerialGC", "-Djava.util.concurrent.ForkJoinPool.common.parallelism=2");
        assertThat(o.parallelConsumerKafkaClients()).isEqualTo("kafka-clients-3.9.1.jar");
    }

    @Test
    void theBoundIsCallsInFlightOverLatency() {
        EnrichRace.Options o = EnrichRace.Options.parse(
                "--concurrency", "100", "--latency-ms", "10", "--parallel-consumer-kafka-clients", "k.jar");

        assertThat(EnrichRace.bound("etl-async", o)).isEqualTo(10_000.0);
        assertThat(EnrichRace.bound("parallel-consumer", o)).isEqualTo(10_000.0);
        assertThat(EnrichRace.bound("etl-map", o)).as("one call per partition").isEqualTo(600.0);
    }

    @Test
    void anUnknownContestantIsRefused() {
        assertThatThrownBy(() -> EnrichRace.Options.parse("--only", "etl-async,flink"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("flink");
    }

    @Test
    void parallelConsumerWithoutAKafkaClients3JarIsRefusedSayingWhy() {
        assertThatThrownBy(() -> EnrichRace.Options.parse("--records", "1000"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("kafka-clients 3.x")
                .hasMessageContaining("--parallel-consumer-kafka-clients");
        assertThat(EnrichRace.Options.parse("--only", "etl-async,kafka-streams").parallelConsumerKafkaClients())
                .isNull();
    }

    @Test
    void theOrdersDecodeAsTheExampleReadsThemAndEncodeAsItWrites() {
        byte[] value = EnrichOrdersInput.order(1234, 1_000).value();
        OrderEvent order = EnrichOrdersInput.decode(value);

        assertThat(order).isEqualTo(new OrderEvent("o-1234", "c-234", 1, 1334));
        String json = new String(
                EnrichOrdersInput.encode(new EnrichedOrder("o-1", "c-1", 0, 5, "gold", "eu")), StandardCharsets.UTF_8);
        assertThat(json).contains("\"amount_cents\":5", "\"tier\":\"gold\"");
    }
}
