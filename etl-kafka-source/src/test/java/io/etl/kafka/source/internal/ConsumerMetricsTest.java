package io.etl.kafka.source.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.junit.jupiter.api.Test;

class ConsumerMetricsTest {

    private final Map<MetricName, Metric> metrics = new ConcurrentHashMap<>();

    @Test
    void registersOnlyTheMetricsThatAppearAfterBinding() {
        add("records-consumed-total", Map.of("client-id", "c-1"), 5);
        add("fetch-rate", Map.of("client-id", "c-1"), 2);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream stderr = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try (ConsumerMetrics bound =
                ConsumerMetrics.bind(consumer(), registry, Tags.of("source", "in"), Duration.ofMillis(20), "metrics")) {
            assertThat(registry.get("etl.kafka.source.fetch.manager.records.consumed.total")
                            .functionCounter()
                            .count())
                    .isEqualTo(5);

            // a partition assigned: its lag appears, and the binder refreshes what it bound
            add("records-lag", Map.of("client-id", "c-1", "topic", "t", "partition", "0"), 7);
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> registry.find("etl.kafka.source.fetch.manager.records.lag")
                                    .gauge()
                            != null);

            assertThat(registry.get("etl.kafka.source.fetch.manager.records.lag")
                            .tag("partition", "0")
                            .gauge()
                            .value())
                    .isEqualTo(7);
            assertThat(registry.getMeters()).noneMatch(m -> m.getId().getName().startsWith("kafka."));
            // the meters bound before the change were not registered a second time (Micrometer logs each such
            // registration: at WARN the first time in a JVM, at DEBUG after that; this module logs both)
            assertThat(err.toString(StandardCharsets.UTF_8)).doesNotContain("already registered");
        } finally {
            System.setErr(stderr);
        }
        assertThat(registry.getMeters()).isEmpty();
    }

    private void add(String name, Map<String, String> tags, double value) {
        MetricName metricName = new MetricName(name, "consumer-fetch-manager-metrics", "", tags);
        metrics.put(metricName, new Metric() {
            @Override
            public MetricName metricName() {
                return metricName;
            }

            @Override
            public Object metricValue() {
                return value;
            }
        });
    }

    /** A consumer that answers only {@code metrics()}: all the binder calls. */
    @SuppressWarnings("unchecked")
    private Consumer<byte[], byte[]> consumer() {
        return (Consumer<byte[], byte[]>) Proxy.newProxyInstance(
                Consumer.class.getClassLoader(), new Class<?>[] {Consumer.class}, (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "metrics":
                            return Map.copyOf(metrics);
                        case "toString":
                            return "test consumer";
                        case "hashCode":
                            return System.identityHashCode(proxy);
                        case "equals":
                            return proxy == args[0];
                        default:
                            throw new UnsupportedOperationException(method.getName());
                    }
                });
    }
}
