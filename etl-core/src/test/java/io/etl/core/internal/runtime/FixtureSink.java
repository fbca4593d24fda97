package io.etl.core.internal.runtime;

import io.etl.core.config.SinkPoolConfig;
import io.etl.core.record.RecordMeta;
import io.etl.core.sink.Encoder;
import io.etl.core.sink.Sink;
import io.etl.core.sink.SinkContext;
import io.etl.core.sink.SinkWriter;
import java.util.function.Function;

/**
 * A sink for the core's tests, made of the parts a test cares about: a name, an encoder and how each writer
 * opens; the pool has its default settings.
 *
 * @param <T> value type
 * @param <M> message type
 */
public class FixtureSink<T, M> implements Sink<T, M> {

    private final String name;
    private final Encoder<T, M> encoder;
    private final Function<SinkContext, SinkWriter<M>> writers;

    public FixtureSink(String name, Encoder<T, M> encoder, Function<SinkContext, SinkWriter<M>> writers) {
        this.name = name;
        this.encoder = encoder;
        this.writers = writers;
    }

    /** An encoder whose message is the value itself, one unit in size. */
    public static <T> Encoder<T, T> passThrough() {
        return new PassThrough<>();
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public SinkPoolConfig pool() {
        return SinkPoolConfig.defaults();
    }

    @Override
    public Encoder<T, M> encoder() {
        return encoder;
    }

    @Override
    public SinkWriter<M> openWriter(SinkContext context) {
        return writers.apply(context);
    }

    private record PassThrough<T>() implements Encoder<T, T> {
        @Override
        public T encode(T value, RecordMeta meta, int outputIndex) {
            return value;
        }

        @Override
        public long sizeOf(T message) {
            return 1;
        }
    }
}
