package io.etl.bench.impl;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * The loop most applications start with: one consumer and one producer on one thread, and every
 * {@value #COMMIT_INTERVAL_MS} ms a {@code flush()} of the producer followed by a {@code commitAsync} of
 * everything polled before it. The flush returns once every record sent so far is acknowledged (or failed), so
 * the committed offsets are at-least-once; the price is that the loop stops consuming while a flush waits.
 *
 * <p>Producer and consumer settings as {@link ClientsSplit}'s (see {@link ClientLoop}).
 */
final class FlushingClientsSplit implements SplitImplementation {

    static final long COMMIT_INTERVAL_MS = 100;

    @Override
    public String name() {
        return Contestant.CLIENTS_FLUSH.label();
    }

    @Override
    public Running start(String bootstrapServers, Map<String, String> clientProperties, RaceTopics topics) {
        return new Loop(bootstrapServers, clientProperties, topics).start("clients-flush-split");
    }

    private static final class Loop extends ClientLoop implements Callback {
        /** The next offset of every partition polled since the last commit. */
        private final Map<TopicPartition, OffsetAndMetadata> polled = new HashMap<>();

        Loop(String bootstrapServers, Map<String, String> clientProperties, RaceTopics topics) {
            super(bootstrapServers, clientProperties, topics);
        }

        @Override
        void consume() {
            long nextCommit = System.currentTimeMillis() + COMMIT_INTERVAL_MS;
            while (running && failure.get() == null) {
                process(consumer.poll(Duration.ofMillis(50)));
                if (System.currentTimeMillis() >= nextCommit) {
                    flushAndCommit(false);
                    nextCommit = System.currentTimeMillis() + COMMIT_INTERVAL_MS;
                }
            }
        }

        @Override
        void stopping() {
            flushAndCommit(true);
        }

        private void process(ConsumerRecords<byte[], byte[]> records) {
            for (TopicPartition tp : records.partitions()) {
                List<ConsumerRecord<byte[], byte[]>> partition = records.records(tp);
                for (ConsumerRecord<byte[], byte[]> record : partition) {
                    transformAndSend(record, this);
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
            commit(commit, sync);
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
    }
}
