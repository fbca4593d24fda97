package io.etl.bench.impl;

import io.etl.bench.orders.OrderCodec;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * What the hand-written loops share: one consumer and one producer with the race's settings ({@code acks=all},
 * idempotence on, {@link RaceClientSettings}, auto commit off), the transform and send of one record, and a thread of their own that runs until closed. A loop
 * supplies {@link #consume()}, which runs until {@link #running} turns false or a failure is recorded, and
 * {@link #stopping()}, which makes what it sent durable and commits it.
 */
abstract class ClientLoop implements Runnable, ConsumerRebalanceListener {

    final KafkaConsumer<byte[], byte[]> consumer;
    final KafkaProducer<byte[], byte[]> producer;
    final AtomicReference<Throwable> failure = new AtomicReference<>();
    volatile boolean running = true;
    private final String input;
    private final String[] outputs;
    private final OrderCodec codec = new OrderCodec();

    ClientLoop(String bootstrapServers, Map<String, String> clientProperties, RaceTopics topics) {
        Map<String, Object> consumerProps = new HashMap<>(clientProperties);
        consumerProps.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        consumerProps.put(ConsumerConfig.GROUP_ID_CONFIG, topics.group());
        consumerProps.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        consumerProps.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        consumerProps.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, RaceClientSettings.MAX_POLL_RECORDS);
        Map<String, Object> producerProps = new HashMap<>(clientProperties);
        producerProps.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        producerProps.put(ProducerConfig.ACKS_CONFIG, "all");
        producerProps.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        producerProps.put(ProducerConfig.LINGER_MS_CONFIG, RaceClientSettings.LINGER_MS);
        producerProps.put(ProducerConfig.BATCH_SIZE_CONFIG, RaceClientSettings.BATCH_SIZE);
        this.consumer = new KafkaConsumer<>(consumerProps, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.producer = new KafkaProducer<>(producerProps, new ByteArraySerializer(), new ByteArraySerializer());
        this.input = topics.input();
        this.outputs = topics.outputs().toArray(String[]::new);
    }

    /** Polls and sends until {@link #running} is false or {@link #failure} holds something. */
    abstract void consume();

    /** The loop is done: everything sent so far must become durable and be committed. */
    abstract void stopping();

    /**
     * Transforms one input record and sends the result, reporting to {@code callback}.
     *
     * @return whether anything was sent (a test order or a value that is not an order is dropped)
     */
    final boolean transformAndSend(ConsumerRecord<byte[], byte[]> record, Callback callback) {
        OrderCodec.Routed routed = codec.transform(record.value());
        if (routed == null) {
            return false;
        }
        producer.send(new ProducerRecord<>(outputs[routed.branch()], record.key(), routed.json()), callback);
        return true;
    }

    /**
     * Commits {@code offsets}: {@code commitSync} when stopping, else {@code commitAsync}, whose failure stops the
     * loop unless it is retriable (the next commit supersedes it).
     */
    final void commit(Map<TopicPartition, OffsetAndMetadata> offsets, boolean sync) {
        if (sync) {
            consumer.commitSync(offsets);
        } else {
            consumer.commitAsync(offsets, (o, e) -> {
                if (e != null && !(e instanceof RetriableException)) {
                    failure.compareAndSet(null, e);
                }
            });
        }
    }

    @Override
    public final void run() {
        try {
            consumer.subscribe(List.of(input), this);
            consume();
            stopping();
        } catch (WakeupException closing) {
            stopping();
        } catch (RuntimeException e) {
            failure.compareAndSet(null, e);
        } finally {
            producer.close(Duration.ofSeconds(10));
            consumer.close(Duration.ofSeconds(10));
        }
    }

    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
        // nothing to set up: offsets come from the group
    }

    /** Runs the loop on a thread named {@code threadName}; closing the result stops it and waits for it. */
    final SplitImplementation.Running start(String threadName) {
        Thread thread = new Thread(this, threadName);
        thread.start();
        return new SplitImplementation.Running() {
            @Override
            public Optional<Throwable> failure() {
                return Optional.ofNullable(failure.get());
            }

            @Override
            public void close() {
                running = false;
                consumer.wakeup();
                try {
                    thread.join(Duration.ofSeconds(30).toMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
    }
}
