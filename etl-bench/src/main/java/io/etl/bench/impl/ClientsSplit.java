package io.etl.bench.impl;

import io.etl.bench.orders.OrderCodec;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
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
 * The hand-tuned kafka-clients contestant: one consumer and one producer on one thread. Each poll's
 * records are transformed with Jackson and sent with one callback object per poll that counts
 * acknowledgements; a poll's offsets are committed ({@code commitAsync}) only once it and every earlier
 * poll are fully acknowledged, so the loop is at-least-once without blocking on a flush per poll. At most
 * {@value #MAX_OUTSTANDING_POLLS} polls may be unacknowledged; beyond that the loop waits (backpressure).
 *
 * <p>Producer: {@code acks=all}, idempotence on, {@code linger.ms} 20, {@code batch.size} 256 KiB.
 * Consumer: {@code max.poll.records} 2000, auto commit off.
 */
final class ClientsSplit implements SplitImplementation {

    static final int MAX_OUTSTANDING_POLLS = 16;

    @Override
    public String name() {
        return Contestant.CLIENTS.label();
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
        Thread thread = new Thread(loop, "clients-split");
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

    /** The records of one poll: acknowledged when {@link #remaining} reaches zero. */
    private static final class PollBatch implements Callback {
        private final Map<TopicPartition, OffsetAndMetadata> offsets;
        private final AtomicInteger remaining = new AtomicInteger(1); // +1 until every record was sent
        private final AtomicReference<Throwable> failure;

        PollBatch(Map<TopicPartition, OffsetAndMetadata> offsets, AtomicReference<Throwable> failure) {
            this.offsets = offsets;
            this.failure = failure;
        }

        @Override
        public void onCompletion(RecordMetadata metadata, Exception exception) {
            if (exception != null) {
                failure.compareAndSet(null, exception); // never decremented: its offsets are never committed
                return;
            }
            remaining.decrementAndGet();
        }

        boolean acknowledged() {
            return remaining.get() == 0;
        }
    }

    private static final class Loop implements Runnable, ConsumerRebalanceListener {
        final KafkaConsumer<byte[], byte[]> consumer;
        final KafkaProducer<byte[], byte[]> producer;
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        volatile boolean running = true;
        private final String input;
        private final String[] outputs;
        private final OrderCodec codec = new OrderCodec();
        private final ArrayDeque<PollBatch> pending = new ArrayDeque<>();

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
                while (running && failure.get() == null) {
                    commitAcknowledged(false);
                    if (pending.size() >= MAX_OUTSTANDING_POLLS) {
                        producer.flush(); // backpressure: let the oldest polls complete
                        continue;
                    }
                    process(consumer.poll(Duration.ofMillis(50)));
                }
                producer.flush();
                commitAcknowledged(true);
            } catch (WakeupException stopping) {
                producer.flush();
                commitAcknowledged(true);
            } catch (RuntimeException e) {
                failure.compareAndSet(null, e);
            } finally {
                producer.close(Duration.ofSeconds(10));
                consumer.close(Duration.ofSeconds(10));
            }
        }

        private void process(ConsumerRecords<byte[], byte[]> records) {
            if (records.isEmpty()) {
                return;
            }
            Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
            PollBatch batch = new PollBatch(offsets, failure);
            for (TopicPartition tp : records.partitions()) {
                List<ConsumerRecord<byte[], byte[]>> partition = records.records(tp);
                for (ConsumerRecord<byte[], byte[]> record : partition) {
                    OrderCodec.Routed routed = codec.transform(record.value());
                    if (routed != null) {
                        batch.remaining.incrementAndGet();
                        producer.send(
                                new ProducerRecord<>(outputs[routed.branch()], record.key(), routed.json()), batch);
                    }
                }
                offsets.put(
                        tp,
                        new OffsetAndMetadata(
                                partition.get(partition.size() - 1).offset() + 1));
            }
            batch.remaining.decrementAndGet();
            pending.addLast(batch);
        }

        /** Commits the offsets of the longest run of acknowledged polls, oldest first. */
        private void commitAcknowledged(boolean sync) {
            Map<TopicPartition, OffsetAndMetadata> commit = null;
            while (!pending.isEmpty() && pending.peekFirst().acknowledged()) {
                if (commit == null) {
                    commit = new HashMap<>();
                }
                commit.putAll(pending.pollFirst().offsets);
            }
            if (commit == null) {
                return;
            }
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
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            producer.flush(); // everything sent so far is acknowledged or failed
            commitAcknowledged(true);
            pending.clear(); // any left failed: not committed, redelivered
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            // nothing to set up: offsets come from the group
        }
    }
}
