package io.etl.kafka.sink.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.etl.kafka.common.internal.LastThreadCache;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Writes JSON values through one long-lived generator per thread instead of a new one per value. {@link
 * ObjectWriter#writeValueAsBytes} builds a generator, its I/O context, its write context and an output buffer
 * for every value; for the small values of a record stream that set-up is a third of the encoding. Here a thread
 * keeps its generator and buffer, and only the value's bytes are copied out, byte for byte what {@code
 * writeValueAsBytes} returns.
 *
 * <p>A value that fails halfway may leave the generator inside an object, so after any failure the thread's
 * generator is dropped and the next value gets a new one. A value written while the thread's generator is busy
 * (a serializer that encodes another value) falls back to {@code writeValueAsBytes}.
 */
final class ReusedJsonGenerators {

    /** First block of a thread's buffer: a typical record's JSON fits; larger values grow it in blocks. */
    private static final int FIRST_BLOCK = 1024;

    private final ObjectMapper mapper;
    private final ThreadLocal<Output> outputs;
    private final LastThreadCache<Output> current;

    ReusedJsonGenerators(ObjectMapper mapper) {
        this.mapper = mapper;
        this.outputs = ThreadLocal.withInitial(this::newOutput);
        this.current = new LastThreadCache<>(outputs::get);
    }

    /** {@code writer.writeValueAsBytes(value)}, for a writer of this mapper. */
    byte[] write(ObjectWriter writer, Object value) throws IOException {
        Output out = current.get();
        if (out.busy) {
            return writer.writeValueAsBytes(value); // a serializer that encodes another value while it runs
        }
        out.busy = true;
        try {
            writer.writeValue(out.generator, value);
            out.generator.flush();
            return out.buffer.toByteArray();
        } catch (IOException | RuntimeException | Error e) {
            outputs.remove();
            current.forget();
            throw e;
        } finally {
            out.buffer.reset();
            out.busy = false;
        }
    }

    private Output newOutput() {
        ByteArrayBuilder buffer = new ByteArrayBuilder(FIRST_BLOCK);
        try {
            JsonGenerator generator = mapper.getFactory().createGenerator(buffer);
            generator.setRootValueSeparator(null); // values follow each other with nothing between them
            return new Output(buffer, generator);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a JSON generator", e);
        }
    }

    /** One thread's generator and the buffer it writes into. */
    private static final class Output {
        final ByteArrayBuilder buffer;
        final JsonGenerator generator;
        boolean busy;

        Output(ByteArrayBuilder buffer, JsonGenerator generator) {
            this.buffer = buffer;
            this.generator = generator;
        }
    }
}
