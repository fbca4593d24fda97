package io.etl.kafka.source.internal;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.config.MeterFilter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.apache.kafka.clients.consumer.Consumer;

/**
 * The consumer's own metrics (fetch rates and latency, per-partition lag and lead, coordinator and
 * network figures) as {@code etl.kafka.source.*} ({@code etl_kafka_source_*} in Prometheus), refreshed every
 * {@code statistics_interval}. Micrometer's Kafka binder names them {@code kafka.consumer.*}; it is bound to
 * a private composite whose only child is the pipeline's registry and whose filter renames those meters, so
 * nothing else in the pipeline's registry is touched.
 */
final class ConsumerMetrics implements AutoCloseable {

    /** Prefix of the meters this class registers. */
    static final String PREFIX = "etl.kafka.source.";

    private final CompositeMeterRegistry composite;
    private final MeterRegistry target;
    private final KafkaClientMetrics binder;

    private ConsumerMetrics(CompositeMeterRegistry composite, MeterRegistry target, KafkaClientMetrics binder) {
        this.composite = composite;
        this.target = target;
        this.binder = binder;
    }

    static ConsumerMetrics bind(
            Consumer<?, ?> consumer, MeterRegistry target, Tags tags, Duration interval, String threadName) {
        CompositeMeterRegistry composite = new CompositeMeterRegistry();
        composite.config().meterFilter(new MeterFilter() {
            @Override
            public Meter.Id map(Meter.Id id) {
                return id.withName(rename(id.getName()));
            }
        });
        composite.add(target);
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
        // the binder owns the scheduler and shuts it down when closed
        KafkaClientMetrics binder = new KafkaClientMetrics(consumer, tags, scheduler, interval);
        binder.bindTo(composite);
        return new ConsumerMetrics(composite, target, binder);
    }

    /**
     * {@code kafka.consumer.fetch.manager.records.lag} becomes {@code etl.kafka.source.fetch.manager.records.lag}.
     */
    static String rename(String name) {
        String rest = name;
        if (rest.startsWith("kafka.")) {
            rest = rest.substring("kafka.".length());
        }
        if (rest.startsWith("consumer.")) {
            rest = rest.substring("consumer.".length());
        }
        return PREFIX + rest;
    }

    @Override
    public void close() {
        List<Meter> meters = List.copyOf(composite.getMeters());
        binder.close();
        for (Meter m : meters) {
            target.remove(m.getId());
        }
        composite.remove(target);
    }
}
