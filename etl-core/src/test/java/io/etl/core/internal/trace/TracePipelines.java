package io.etl.core.internal.trace;

import io.etl.core.internal.runtime.FixtureSink;
import io.etl.core.internal.runtime.FixtureSource;
import io.etl.core.record.Header;
import io.etl.core.record.RecordMeta;
import io.etl.core.record.TraceContext;
import io.etl.core.sink.Encoder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

/** A source that emits prepared records once and a sink that keeps what its encoder was given. */
final class TracePipelines {

    static final String TOPIC = "in";

    private TracePipelines() {}

    /** A record of the input topic at {@code offset}, carrying {@code headers}. */
    static RecordMeta meta(long offset, Header... headers) {
        return new RecordMeta(TOPIC, 0, offset, -1L, null, List.of(headers));
    }

    /** What the sink's encoder was called with: the trace is null when the pipeline passed none. */
    record Encoded(String value, RecordMeta meta, int outputIndex, TraceContext trace) {}

    /** The prepared records of partition 0 of {@link #TOPIC}, emitted in one poll. */
    static final class ListSource extends FixtureSource {
        ListSource(List<RecordMeta> records) {
            super(records);
        }
    }

    /** Sink {@code out}: keeps what its encoder was given and what its writer wrote. */
    static class CapturingSink extends FixtureSink<String, Encoded> {
        final List<Encoded> encoded;
        final List<Encoded> written;

        CapturingSink() {
            this(new CopyOnWriteArrayList<>(), new CopyOnWriteArrayList<>());
        }

        private CapturingSink(List<Encoded> encoded, List<Encoded> written) {
            super("out", new KeepingEncoder(encoded), context -> batch -> {
                written.addAll(new ArrayList<>(batch.messages()));
                return CompletableFuture.completedFuture(null);
            });
            this.encoded = encoded;
            this.written = written;
        }
    }

    /** Encodes a value, with the trace it was passed, into an {@link Encoded} it also adds to a list. */
    private record KeepingEncoder(List<Encoded> kept) implements Encoder<String, Encoded> {

        @Override
        public Encoded encode(String value, RecordMeta meta, int outputIndex) {
            return keep(new Encoded(value, meta, outputIndex, null));
        }

        @Override
        public Encoded encode(String value, RecordMeta meta, int outputIndex, TraceContext trace) {
            return keep(new Encoded(value, meta, outputIndex, trace));
        }

        @Override
        public long sizeOf(Encoded message) {
            return 1;
        }

        private Encoded keep(Encoded e) {
            kept.add(e);
            return e;
        }
    }
}
