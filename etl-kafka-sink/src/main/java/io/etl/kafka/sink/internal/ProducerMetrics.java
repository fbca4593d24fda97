package io.etl.kafka.sink.internal;

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
import org.apache.kafka.clients.producer.Producer;

/**
 * The producer's own metrics as {@code etl.kafka.sink.*} ({@code etl_kafka_sink_*} in Prometheus),
 * refreshed every {@code statistics_interval}. Micrometer's Kafka binder names them {@code kafka.producer.*};
 * it is bound to a private composite whose only child is the pipeline's registry and whose filter renames
 * those meters, so nothing else in the pipeline's registry is touched.
 */
final class ProducerMetrics implements AutoCloseable {

    /** Prefix of the meters this class registers. */
    static final String PREFIX = "etl.kafka.sink.";

    private final CompositeMeterRegistry composite;
    private final MeterRegistry target;
    private final KafkaClientMetrics binder;

    private ProducerMetrics(CompositeMeterRegistry composite, MeterRegistry target, KafkaClientMetrics binder) {
        this.composite = composite;
        this.target = target;
        this.binder = binder;
    }

    static ProducerMetrics bind(Producer<?, ?> producer, MeterRegistry target, Tags tags, Duration interval, String threadName) {
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
        KafkaClientMetrics binder = new KafkaClientMetrics(producer, tags, scheduler, interval);
        binder.bindTo(composite);
        return new ProducerMetrics(composite, target, binder);
    }

    /** {@code kafka.producer.record.send.total} becomes {@code etl.kafka.sink.record.send.total}. */
    static String rename(String name) {
        String rest = name;
        if (rest.startsWith("kafka.")) {
            rest = rest.substring("kafka.".length());
        }
        if (rest.startsWith("producer.")) {
            rest = rest.substring("producer.".length());
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
