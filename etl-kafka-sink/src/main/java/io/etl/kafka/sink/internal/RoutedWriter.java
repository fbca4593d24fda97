package io.etl.kafka.sink.internal;

import io.etl.core.sink.OpenWrite;
import io.etl.core.sink.SealedBatch;
import io.etl.core.sink.SinkWriter;
import io.etl.kafka.sink.KafkaMessage;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A route's writer: the writer of the run's delivery mode, which sends each message to the topic it names, plus the
 * route's per-topic count of acknowledged messages; closing it closes the route's admin client too.
 */
final class RoutedWriter implements SinkWriter<KafkaMessage> {

    private final SinkWriter<KafkaMessage> writer;
    private final RoutedTopics topics;

    RoutedWriter(SinkWriter<KafkaMessage> writer, RoutedTopics topics) {
        this.writer = writer;
        this.topics = topics;
    }

    @Override
    public CompletableFuture<Void> writeBatch(SealedBatch<KafkaMessage> batch) {
        return counted(writer.writeBatch(batch), batch);
    }

    @Override
    public OpenWrite<KafkaMessage> openWrite(int shard) {
        OpenWrite<KafkaMessage> open = writer.openWrite(shard);
        if (open == null) {
            return null;
        }
        return new OpenWrite<>() {
            @Override
            public boolean add(KafkaMessage message) {
                return open.add(message);
            }

            @Override
            public CompletableFuture<Void> close(SealedBatch<KafkaMessage> batch) {
                return counted(open.close(batch), batch);
            }
        };
    }

    /** {@code written}, which counts the batch's messages per topic once it completes normally. */
    private CompletableFuture<Void> counted(CompletableFuture<Void> written, SealedBatch<KafkaMessage> batch) {
        written.thenRun(() -> count(batch));
        return written;
    }

    /** Counts the batch's messages per topic, leaving out those the brokers refused. */
    private void count(SealedBatch<KafkaMessage> batch) {
        List<KafkaMessage> messages = batch.messages();
        RoutedTopics.Topic last = null;
        for (int i = 0; i < messages.size(); i++) {
            if (batch.rejected(i)) {
                continue;
            }
            String name = messages.get(i).topic();
            if (last == null || !last.name().equals(name)) {
                last = topics.find(name);
            }
            if (last != null) {
                last.written().increment();
            }
        }
    }

    @Override
    public void close(Duration timeout) {
        try {
            writer.close(timeout);
        } finally {
            topics.close(timeout);
        }
    }
}
