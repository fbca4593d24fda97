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
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The loop most applications start with: one consumer and one producer on one thread, and every
 * {@value #COMMIT_INTERVAL_MS} ms a {@code flush()} of the producer followed by a {@code commitAsync} of
 * everything polled before it. The flush returns once every record sent so far is acknowledged (or failed), so
 * the committed offsets are at-least-once; the price is that the loop stops consuming while a flush waits.
 *
 * <p>Producer and consumer settings as {@link ClientsSplit}: {@code acks=all}, idempotence on, {@code
 * linger.ms} 20, {@code batch.size} 256 KiB, {@code max.poll.records} 2000, auto commit off.
 */
final class FlushingClientsSplit implements SplitImplementation {

    static final long COMMIT_INTERVAL_MS = 100;

    @Override
    public String name() {
        return Contestant.CLIENTS_FLUSH.label();
    }

    @Override
    public Running start(String bootstrapServers, Map<String, String> clientProperties, RaceTopics topics) {
        Map<String, Object> consumerProps = new HashMap<>(clientProperties);
        consumerProps.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        consumerProps.put(ConsumerConfig.GROUP_ID_CONFIG, topics.group());
        consumerProps.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        consumerProps.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        consumerProps.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 2000);
        Map<String, Object> producerProps = new HashMap<>(clientProperties);
        producerProps.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        producerProps.put(ProducerConfig.ACKS_CONFIG, "all");
        producerProps.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        producerProps.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        producerProps.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        Loop loop = new Loop(
                new KafkaConsumer<>(consumerProps, new ByteArrayDeserializer(), new ByteArrayDeserializer()),
                new KafkaProducer<>(producerProps, new ByteArraySerializer(), new ByteArraySerializer()),
                topics);
        Thread thread = new Thread(loop, "clients-flush-split");
        thread.start();
        return new Running() {
            @Override
            public Optional<Throwable> failure() {
                return Optional.ofNullable(loop.failure.get());
            }

            @Override
            public void close() {
                loop.running = false;
                loop.consumer.wakeup();
                try {
                    thread.join(Duration.ofSeconds(30).toMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
    }

    private static final class Loop implements Runnable, ConsumerRebalanceListener, Callback {
        final KafkaConsumer<byte[], byte[]> consumer;
        final KafkaProducer<byte[], byte[]> producer;
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        volatile boolean running = true;
        private final String input;
        private final String[] outputs;
        private final OrderCodec codec = new OrderCodec();
        /** The next offset of every partition polled since the last commit. */
        private final Map<TopicPartition, OffsetAndMetadata> polled = new HashMap<>();

        Loop(KafkaConsumer<byte[], byte[]> consumer, KafkaProducer<byte[], byte[]> producer, RaceTopics topics) {
            this.consumer = consumer;
            this.producer = producer;
            this.input = topics.input();
            this.outputs = topics.outputs().toArray(String[]::new);
        }

        @Override
        public void run() {
            try {
                consumer.subscribe(List.of(input), this);
                long nextCommit = System.currentTimeMillis() + COMMIT_INTERVAL_MS;
                while (running && failure.get() == null) {
                    process(consumer.poll(Duration.ofMillis(50)));
                    if (System.currentTimeMillis() >= nextCommit) {
                        flushAndCommit(false);
                        nextCommit = System.currentTimeMillis() + COMMIT_INTERVAL_MS;
                    }
                }
                flushAndCommit(true);
            } catch (WakeupException stopping) {
                flushAndCommit(true);
            } catch (RuntimeException e) {
                failure.compareAndSet(null, e);
            } finally {
                producer.close(Duration.ofSeconds(10));
                consumer.close(Duration.ofSeconds(10));
            }
        }

        private void process(ConsumerRecords<byte[], byte[]> records) {
            for (TopicPartition tp : records.partitions()) {
                List<ConsumerRecord<byte[], byte[]>> partition = records.records(tp);
                for (ConsumerRecord<byte[], byte[]> record : partition) {
                    OrderCodec.Routed routed = codec.transform(record.value());
                    if (routed != null) {
                        producer.send(
                                new ProducerRecord<>(outputs[routed.branch()], record.key(), routed.json()), this);
                    }
                }
                polled.put(
                        tp,
                        new OffsetAndMetadata(
                                partition.get(partition.size() - 1).offset() + 1));
            }
        }

        /** Waits for every record sent so far, then commits what was polled, unless a send failed. */
        private void flushAndCommit(boolean sync) {
            producer.flush();
            if (polled.isEmpty() || failure.get() != null) {
                return; // a failed send: nothing after it is committed, so it is redelivered
            }
            Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>(polled);
            polled.clear();
            if (sync) {
                consumer.commitSync(commit);
            } else {
                consumer.commitAsync(commit, (o, e) -> {
                    if (e != null && !(e instanceof RetriableException)) {
                        failure.compareAndSet(null, e); // a retriable failure is superseded by the next commit
                    }
                });
            }
        }

        @Override
        public void onCompletion(RecordMetadata metadata, Exception exception) {
            if (exception != null) {
                failure.compareAndSet(null, exception);
            }
        }

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            flushAndCommit(true);
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            // nothing to set up: offsets come from the group
        }
    }
}
