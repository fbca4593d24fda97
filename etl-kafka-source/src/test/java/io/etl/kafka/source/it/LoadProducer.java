package io.etl.kafka.source.it;

import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.TestRecord;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Produces orders {@code 0..total-1} at a steady rate in the background, order {@code i} to partition
 * {@code i % partitions}, so order {@code i} sits at offset {@code i / partitions} of its partition (one
 * idempotent producer keeps the order).
 */
final class LoadProducer implements AutoCloseable {

    private final KafkaProducer<byte[], byte[]> producer;
    private final String topic;
    private final int partitions;
    private final int total;
    private final int perSecond;
    private final IntFunction<TestRecord> orders;
    private final AtomicInteger sent = new AtomicInteger();
    private final AtomicReference<Exception> failure = new AtomicReference<>();
    private final Thread thread;
    private volatile boolean stopped;

    private LoadProducer(
            KafkaTestCluster kafka,
            String topic,
            int partitions,
            int total,
            int perSecond,
            IntFunction<TestRecord> orders) {
        Map<String, Object> props = new HashMap<>(kafka.clientProperties());
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        this.producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
        this.topic = topic;
        this.partitions = partitions;
        this.total = total;
        this.perSecond = perSecond;
        this.orders = orders;
        this.thread = new Thread(this::run, "load-" + topic);
        this.thread.setDaemon(true);
    }

    /** Starts producing {@code total} orders at {@code perSecond}. */
    static LoadProducer start(KafkaTestCluster kafka, String topic, int partitions, int total, int perSecond) {
        return start(kafka, topic, partitions, total, perSecond, Orders::record);
    }

    /** Starts producing records {@code orders} makes of {@code 0..total-1} at {@code perSecond}. */
    static LoadProducer start(
            KafkaTestCluster kafka,
            String topic,
            int partitions,
            int total,
            int perSecond,
            IntFunction<TestRecord> orders) {
        LoadProducer load = new LoadProducer(kafka, topic, partitions, total, perSecond, orders);
        load.thread.start();
        return load;
    }

    /** The id of the order at {@code offset} of {@code partition}. */
    static String idAt(int partitions, int partition, long offset) {
        return Orders.id((int) (offset * partitions + partition));
    }

    private void run() {
        long start = System.nanoTime();
        try {
            for (int i = 0; i < total && !stopped; i++) {
                TestRecord r = orders.apply(i);
                producer.send(new ProducerRecord<>(topic, i % partitions, r.key(), r.value()), (m, e) -> {
                    if (e != null) {
                        failure.compareAndSet(null, e);
                    }
                });
                sent.incrementAndGet();
                long due = start + TimeUnit.SECONDS.toNanos(1) * (i + 1) / perSecond;
                long ahead = due - System.nanoTime();
                if (ahead > 0) {
                    LockSupport.parkNanos(ahead);
                }
            }
            producer.flush();
        } catch (RuntimeException e) {
            failure.compareAndSet(null, e);
        }
    }

    /** Orders handed to the producer so far. */
    int sent() {
        return sent.get();
    }

    /** Whether every order was sent and acknowledged; rethrows a send failure. */
    boolean done() {
        if (failure.get() != null) {
            throw new IllegalStateException("producing failed", failure.get());
        }
        return !thread.isAlive() && sent.get() == total;
    }

    @Override
    public void close() {
        stopped = true;
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        producer.close(Duration.ofSeconds(5));
    }
}
