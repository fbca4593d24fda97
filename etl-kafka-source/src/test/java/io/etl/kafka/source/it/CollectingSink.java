package io.etl.kafka.source.it;

import io.etl.core.config.SinkPoolConfig;
import io.etl.core.record.RecordMeta;
import io.etl.core.sink.Encoder;
import io.etl.core.sink.Sink;
import io.etl.core.sink.SinkContext;
import io.etl.core.sink.SinkWriter;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;

/** A sink that keeps every value in memory and acknowledges at once: for source-only tests. */
final class CollectingSink<T> implements Sink<T, T> {

    final Queue<T> received = new ConcurrentLinkedQueue<>();

    @Override
    public String name() {
        return "collect";
    }

    @Override
    public SinkPoolConfig pool() {
        return SinkPoolConfig.defaults();
    }

    @Override
    public Encoder<T, T> encoder() {
        return new Encoder<>() {
            @Override
            public T encode(T value, RecordMeta meta, int outputIndex) {
                return value;
            }

            @Override
            public long sizeOf(T message) {
                return 1;
            }
        };
    }

    @Override
    public SinkWriter<T> openWriter(SinkContext context) {
        return batch -> {
            received.addAll(batch.messages());
            return CompletableFuture.completedFuture(null);
        };
    }
}
