package io.etl.kafka.sink.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

class ProducerMetricsTest {

    private static final Map<String, String> CLIENT = Map.of("client-id", "etl-p-out");

    private static Metric metric(MetricName name, AtomicLong value) {
        return new Metric() {
            @Override
            public MetricName metricName() {
                return name;
            }

            @Override
            public Object metricValue() {
                return (double) value.get();
            }
        };
    }

    @Test
    void registersEachClientMetricOnceWhenTheProducerAddsMetricsLater() {
        MockProducer<byte[], byte[]> producer =
                new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
        AtomicLong sent = new AtomicLong(3);
        AtomicLong responses = new AtomicLong(7);
        MetricName sendTotal = new MetricName("record-send-total", "producer-metrics", "", CLIENT);
        MetricName nodeResponses = new MetricName(
                "response-total", "producer-node-metrics", "", Map.of("client-id", "etl-p-out", "node-id", "node-1"));
        producer.setMockMetrics(sendTotal, metric(sendTotal, sent));
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try (ProducerMetrics metrics = ProducerMetrics.bind(
                producer, registry, Tags.of("pipeline", "p"), Duration.ofMillis(20), "metrics-test")) {
            await().atMost(Duration.ofSeconds(5))
                    .until(() ->
                            registry.find("etl.kafka.sink.record.send.total").meter() != null);
            // a connection to a broker adds per-node metrics: the ones already bound must not be bound again
            producer.setMockMetrics(nodeResponses, metric(nodeResponses, responses));
            await().atMost(Duration.ofSeconds(5))
                    .until(() ->
                            registry.find("etl.kafka.sink.node.response.total").meter() != null);
            sent.set(5);
            await().atMost(Duration.ofSeconds(5))
                    .until(() -> registry.get("etl.kafka.sink.record.send.total")
                                    .functionCounter()
                                    .count()
                            == 5.0);
            assertThat(registry.get("etl.kafka.sink.node.response.total")
                            .tag("node.id", "node-1")
                            .functionCounter()
                            .count())
                    .isEqualTo(7.0);
            assertThat(registry.get("etl.kafka.sink.record.send.total")
                            .tag("client.id", "etl-p-out")
                            .tag("pipeline", "p")
                            .meter())
                    .isNotNull();
        } finally {
            System.setErr(err);
        }
        assertThat(captured.toString(StandardCharsets.UTF_8)).doesNotContain("already registered");
        assertThat(registry.getMeters())
                .extracting(Meter::getId)
                .extracting(Meter.Id::getName)
                .noneMatch(name -> name.startsWith("etl.kafka.sink."));
    }
}
