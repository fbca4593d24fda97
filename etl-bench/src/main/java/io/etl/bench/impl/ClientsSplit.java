package io.etl.bench.impl;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * The hand-tuned kafka-clients contestant: one consumer and one producer on one thread. Each poll's
 * records are transformed with Jackson and sent with one callback object per poll that counts
 * acknowledgements; a poll's offsets are committed ({@code commitAsync}) only once it and every earlier
 * poll are fully acknowledged, so the loop is at-least-once without blocking on a flush per poll. At most
 * {@value #MAX_OUTSTANDING_POLLS} polls may be unacknowledged; beyond that the loop waits (backpressure).
 *
 * <p>Producer and consumer settings: see {@link ClientLoop}.
 */
final class ClientsSplit implements SplitImplementation {

    static final int MAX_OUTSTANDING_POLLS = 16;

    @Override
    public String name() {
        return Contestant.CLIENTS.label();
    }

    @Override
    public Running start(String bootstrapServers, Map<String, String> clientProperties, RaceTopics topics) {
        return new Loop(bootstrapServers, clientProperties, topics).start("clients-split");
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

    private static final class Loop extends ClientLoop {
        private final ArrayDeque<PollBatch> pending = new ArrayDeque<>();

        Loop(String bootstrapServers, Map<String, String> clientProperties, RaceTopics topics) {
            super(bootstrapServers, clientProperties, topics);
        }

        @Override
        void consume() {
            while (running && failure.get() == null) {
                commitAcknowledged(false);
                if (pending.size() >= MAX_OUTSTANDING_POLLS) {
                    producer.flush(); // backpressure: let the oldest polls complete
                    continue;
                }
                process(consumer.poll(Duration.ofMillis(50)));
            }
        }

        @Override
        void stopping() {
            producer.flush();
            commitAcknowledged(true);
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
                    if (transformAndSend(record, batch)) {
                        // counted after the send: the poll's own hold keeps the count above zero meanwhile
                        batch.remaining.incrementAndGet();
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
            commit(commit, sync);
        }

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            producer.flush(); // everything sent so far is acknowledged or failed
            commitAcknowledged(true);
            pending.clear(); // any left failed: not committed, redelivered
        }
    }
}
