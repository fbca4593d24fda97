package io.etl.bench.enrich;

import io.etl.examples.enrich.CustomerClient;
import io.etl.examples.enrich.OrderEvent;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;

/**
 * The enrich race's CPU limit with Kafka: the race's work as a hand-written kafka-clients loop that does no more than
 * a Kafka-to-Kafka pipeline must. One thread polls, decodes each order and starts its lookup ({@code sendAsync},
 * at most {@code concurrency} calls in flight); the thread completing the call encodes the result and sends it;
 * offsets are committed asynchronously, every 100 ms, below each partition's lowest order whose output is not yet
 * acknowledged. No per-key order, no retries, no dead letters and no rebalance handling (it runs alone): what it
 * reaches on a machine is the CPU limit of the race's work with Kafka there, the rate a contestant can hope for.
 */
final class ClientsAsyncEnrich implements AutoCloseable {

    private static final long COMMIT_EVERY_NANOS = Duration.ofMillis(100).toNanos();

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final KafkaProducer<byte[], byte[]> producer;
    private final CustomerClient client;
    private final String output;
    private final Semaphore inFlight;
    /** Per partition, the offsets polled whose output is not acknowledged yet. */
    private final Map<TopicPartition, ConcurrentSkipListSet<Long>> pending = new ConcurrentHashMap<>();
    /** Per partition, the offset after the last one polled (poll thread only). */
    private final Map<TopicPartition, Long> polledEnd = new HashMap<>();

    private final Map<TopicPartition, Long> committed = new HashMap<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final Thread loop;
    private volatile boolean running = true;

    ClientsAsyncEnrich(String brokers, EnrichTopics topics, URI service, int concurrency) {
        this.consumer = EnrichClients.consumer(brokers, topics);
        this.producer = EnrichClients.producer(brokers);
        this.client = CustomerClient.of(service);
        this.output = topics.output();
        this.inFlight = new Semaphore(concurrency);
        consumer.subscribe(List.of(topics.input()));
        this.loop = new Thread(this::run, "clients-async-loop");
        loop.start();
    }

    private void run() {
        try {
            long lastCommit = System.nanoTime();
            while (running && failure.get() == null) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(100));
                for (TopicPartition tp : records.partitions()) {
                    ConcurrentSkipListSet<Long> open = pending.computeIfAbsent(tp, p -> new ConcurrentSkipListSet<>());
                    long end = -1;
                    for (ConsumerRecord<byte[], byte[]> r : records.records(tp)) {
                        start(r, open);
                        end = r.offset() + 1;
                    }
                    polledEnd.put(tp, end);
                }
                if (System.nanoTime() - lastCommit >= COMMIT_EVERY_NANOS) {
                    commit();
                    lastCommit = System.nanoTime();
                }
            }
        } catch (WakeupException | InterruptedException e) {
            // closing
        } catch (RuntimeException e) {
            failure.compareAndSet(null, e);
        } finally {
            consumer.close(Duration.ofSeconds(10));
        }
    }

    private void start(ConsumerRecord<byte[], byte[]> r, ConcurrentSkipListSet<Long> open) throws InterruptedException {
        long offset = r.offset();
        open.add(offset);
        OrderEvent order = EnrichOrdersInput.decode(r.value());
        inFlight.acquire();
        client.lookup(order.customer()).thenApply(order::enrich).whenComplete((enriched, error) -> {
            inFlight.release();
            if (error != null) {
                failure.compareAndSet(null, error);
                return;
            }
            producer.send(new ProducerRecord<>(output, r.key(), EnrichOrdersInput.encode(enriched)), (md, e) -> {
                if (e != null) {
                    failure.compareAndSet(null, e);
                } else {
                    open.remove(offset);
                }
            });
        });
    }

    /** Commits, where it moved, each partition's offset below its lowest order not yet written. */
    private void commit() {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        polledEnd.forEach((tp, end) -> {
            Long lowestOpen = pending.get(tp).ceiling(Long.MIN_VALUE);
            long next = lowestOpen != null ? lowestOpen : end;
            if (!Long.valueOf(next).equals(committed.get(tp))) {
                offsets.put(tp, new OffsetAndMetadata(next));
                committed.put(tp, next);
            }
        });
        if (!offsets.isEmpty()) {
            consumer.commitAsync(offsets, (o, e) -> {
                if (e != null) {
                    failure.compareAndSet(null, e);
                }
            });
        }
    }

    /** Why the loop stopped, once it stopped on its own (null while it runs). */
    Throwable failure() {
        return failure.get();
    }

    @Override
    public void close() {
        running = false;
        consumer.wakeup();
        try {
            loop.join(Duration.ofSeconds(10).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        producer.close(Duration.ofSeconds(10));
    }
}
