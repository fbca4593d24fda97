package io.etl.kafka.source.internal;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.apache.kafka.clients.consumer.Consumer;

/**
 * The consumer's own metrics (fetch rates and latency, per-partition lag and lead, coordinator and
 * network figures) as {@code etl.kafka.source.*} ({@code etl_kafka_source_*} in Prometheus), refreshed every
 * {@code statistics_interval}. Micrometer's Kafka binder names them {@code kafka.consumer.*} and is bound to a
 * private registry of this class; every meter it adds there is mirrored into the pipeline's registry under
 * the renamed name, and removed from it with the original, so nothing else in the pipeline's registry is
 * touched. The binder looks its meters up by their own names whenever the consumer's metrics change (a
 * partition assigned, a connection opened): in the private registry it finds them and adds only what is new.
 */
final class ConsumerMetrics implements AutoCloseable {

    /** Prefix of the meters this class registers. */
    static final String PREFIX = "etl.kafka.source.";

    private final SimpleMeterRegistry bound;
    private final MeterRegistry target;
    private final Map<Meter.Id, Meter> mirrored;
    private final KafkaClientMetrics binder;

    private ConsumerMetrics(
            SimpleMeterRegistry bound, MeterRegistry target, Map<Meter.Id, Meter> mirrored, KafkaClientMetrics binder) {
        this.bound = bound;
        this.target = target;
        this.mirrored = mirrored;
        this.binder = binder;
    }

    static ConsumerMetrics bind(
            Consumer<?, ?> consumer, MeterRegistry target, Tags tags, Duration interval, String threadName) {
        SimpleMeterRegistry bound = new SimpleMeterRegistry();
        Map<Meter.Id, Meter> mirrored = new ConcurrentHashMap<>();
        bound.config()
                .onMeterAdded(meter -> {
                    Meter mirror = mirror(meter, target);
                    if (mirror != null) {
                        mirrored.put(meter.getId(), mirror);
                    }
                })
                .onMeterRemoved(meter -> {
                    Meter mirror = mirrored.remove(meter.getId());
                    if (mirror != null) {
                        target.remove(mirror);
                    }
                });
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
        // the binder owns the scheduler and shuts it down when closed
        KafkaClientMetrics binder = new KafkaClientMetrics(consumer, tags, scheduler, interval);
        binder.bindTo(bound);
        return new ConsumerMetrics(bound, target, mirrored, binder);
    }

    /**
     * The binder registers gauges and function counters only (and, once, a meter of no type to read the
     * registry's common tags, which it removes at once and which is not mirrored).
     */
    private static Meter mirror(Meter meter, MeterRegistry target) {
        Meter.Id id = meter.getId();
        String name = rename(id.getName());
        if (meter instanceof FunctionCounter counter) {
            return FunctionCounter.builder(name, counter, FunctionCounter::count)
                    .tags(id.getTagsAsIterable())
                    .description(id.getDescription())
                    .baseUnit(id.getBaseUnit())
                    .register(target);
        }
        if (meter instanceof Gauge gauge) {
            return Gauge.builder(name, gauge, Gauge::value)
                    .tags(id.getTagsAsIterable())
                    .description(id.getDescription())
                    .baseUnit(id.getBaseUnit())
                    .strongReference(true)
                    .register(target);
        }
        return null;
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
        binder.close();
        for (Meter mirror : List.copyOf(mirrored.values())) {
            target.remove(mirror);
        }
        mirrored.clear();
        bound.close();
    }
}
