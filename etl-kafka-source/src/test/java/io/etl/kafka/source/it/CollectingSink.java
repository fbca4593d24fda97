package io.etl.kafka.source.it;

import io.etl.core.config.SinkPoolConfig;
import io.etl.core.sink.Encoder;
import io.etl.core.sink.Sink;
import io.etl.core.sink.SinkContext;
import io.etl.core.sink.SinkWriter;
import io.etl.testkit.driver.PipelineTestDriver;
import io.etl.testkit.driver.TestSink;
import java.util.AbstractCollection;
import java.util.Collection;
import java.util.Iterator;

/**
 * The testkit's in-memory {@link TestSink} {@code collect}, acknowledging at once, with the values it received
 * as a live collection: for source-only tests.
 */
final class CollectingSink<T> implements Sink<T, TestSink.Received<T>> {

    private final TestSink<T> sink = PipelineTestDriver.create().sink("collect", SinkPoolConfig.defaults());

    /** The values received so far, in acknowledgement order. */
    final Collection<T> received = new AbstractCollection<>() {
        @Override
        public Iterator<T> iterator() {
            return sink.values().iterator();
        }

        @Override
        public int size() {
            return sink.received().size();
        }
    };

    @Override
    public String name() {
        return sink.name();
    }

    @Override
    public SinkPoolConfig pool() {
        return sink.pool();
    }

    @Override
    public Encoder<T, TestSink.Received<T>> encoder() {
        return sink.encoder();
    }

    @Override
    public SinkWriter<TestSink.Received<T>> openWriter(SinkContext context) {
        return sink.openWriter(context);
    }
}
