package io.etl.kafka.sink.internal;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The producer's own metrics as {@code etl.kafka.sink.*} ({@code etl_kafka_sink_*} in Prometheus): group
 * {@code producer-metrics} metric {@code record-send-total} becomes {@code etl.kafka.sink.record.send.total},
 * {@code producer-node-metrics} {@code response-total} becomes {@code etl.kafka.sink.node.response.total}.
 * Every {@code statistics_interval} the producer's metric set is read again: metrics that appeared (a new
 * broker connection, a new topic) are registered, metrics that went away are removed, and a metric already
 * registered is never registered again (Micrometer's Kafka binder, bound through a renaming filter, could
 * not recognise its own renamed meters and registered all of them again whenever the set changed). Values
 * are read from the producer's metric when the registry is scraped.
 */
final class ProducerMetrics implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ProducerMetrics.class);

    /** Prefix of the meters this class registers. */
    static final String PREFIX = "etl.kafka.sink.";

    private final Producer<?, ?> producer;
    private final MeterRegistry target;
    private final Tags tags;
    private final ScheduledExecutorService scheduler;
    /** Guarded by this. */
    private final Map<MetricName, Meter> registered = new HashMap<>();

    private boolean closed;

    private ProducerMetrics(
            Producer<?, ?> producer, MeterRegistry target, Tags tags, ScheduledExecutorService scheduler) {
        this.producer = producer;
        this.target = target;
        this.tags = tags;
        this.scheduler = scheduler;
    }

    static ProducerMetrics bind(
            Producer<?, ?> producer, MeterRegistry target, Tags tags, Duration interval, String threadName) {
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
        ProducerMetrics metrics = new ProducerMetrics(producer, target, tags, scheduler);
        metrics.refresh();
        long millis = Math.max(1, interval.toMillis());
        scheduler.scheduleWithFixedDelay(metrics::refreshQuietly, millis, millis, TimeUnit.MILLISECONDS);
        return metrics;
    }

    private void refreshQuietly() {
        try {
            refresh();
        } catch (RuntimeException e) {
            LOG.debug("reading producer metrics failed: {}", e.toString());
        }
    }

    /** Registers the producer's new metrics and removes those it no longer has. */
    synchronized void refresh() {
        if (closed) {
            return;
        }
        Map<MetricName, ? extends Metric> now = producer.metrics();
        Set<MetricName> gone = new HashSet<>(registered.keySet());
        gone.removeAll(now.keySet());
        for (MetricName name : gone) {
            target.remove(registered.remove(name));
        }
        String version = kafkaVersion(now);
        for (Map.Entry<MetricName, ? extends Metric> e : now.entrySet()) {
            MetricName name = e.getKey();
            if (registered.containsKey(name)
                    || !exported(name)
                    || !(e.getValue().metricValue() instanceof Number)) {
                continue;
            }
            registered.put(name, register(name, e.getValue(), version));
        }
    }

    private Meter register(MetricName name, Metric metric, String version) {
        Tags meterTags = tags.and("kafka.version", version);
        for (Map.Entry<String, String> t : name.tags().entrySet()) {
            meterTags = meterTags.and(t.getKey().replace('-', '.'), t.getValue());
        }
        String meterName = meterName(name);
        if (name.name().endsWith("-total")) {
            return FunctionCounter.builder(meterName, metric, ProducerMetrics::value)
                    .tags(meterTags)
                    .description(name.description())
                    .register(target);
        }
        return Gauge.builder(meterName, metric, ProducerMetrics::value)
                .tags(meterTags)
                .description(name.description())
                .register(target);
    }

    private static double value(Metric metric) {
        Object v = metric.metricValue();
        return v instanceof Number n ? n.doubleValue() : Double.NaN;
    }

    private static boolean exported(MetricName name) {
        return !name.group().equals("app-info") && !name.group().equals("kafka-metrics-count");
    }

    private static String kafkaVersion(Map<MetricName, ? extends Metric> metrics) {
        for (Map.Entry<MetricName, ? extends Metric> e : metrics.entrySet()) {
            if (e.getKey().group().equals("app-info") && e.getKey().name().equals("version")) {
                return String.valueOf(e.getValue().metricValue());
            }
        }
        return "unknown";
    }

    /** {@code producer-node-metrics} / {@code response-total} becomes {@code etl.kafka.sink.node.response.total}. */
    static String meterName(MetricName name) {
        String group = name.group();
        if (group.endsWith("-metrics")) {
            group = group.substring(0, group.length() - "-metrics".length());
        }
        if (group.startsWith("producer")) {
            group = group.substring("producer".length());
        }
        if (group.startsWith("-")) {
            group = group.substring(1);
        }
        return PREFIX + ((group.isEmpty() ? "" : group + ".") + name.name()).replace('-', '.');
    }

    @Override
    public synchronized void close() {
        closed = true;
        scheduler.shutdownNow();
        registered.values().forEach(target::remove);
        registered.clear();
    }
}
