package io.etl.schema.internal;

import io.etl.core.error.RetryableException;
import io.etl.core.record.RecordMeta;
import io.etl.kafka.common.FormatContext;
import io.etl.kafka.source.Decoder;
import io.etl.schema.Keyed;
import io.etl.schema.SchemaDecoder;
import io.micrometer.core.instrument.Counter;
import java.util.HashMap;
import java.util.Map;

/**
 * What every registry-framed decoder does: reads the schema id, finds the format's reader for it (kept per id,
 * so only a new id asks the registry), and turns registry failures into the right kind of error: an id (or a schema
 * it references) the registry does not have is a record error, a registry that does not answer a
 * {@link RetryableException} (the source waits and offers the record again). The loops of a pipeline with
 * {@code pipeline.threads} above 1 share one instance, whose cache and reused buffers are not thread-safe:
 * {@link #open} and {@link #decode} hold its lock (uncontended with one loop).
 *
 * @param <T> decoded type
 * @param <R> the format's reader for one writer schema
 */
public abstract class FramedDecoder<T, R> implements SchemaDecoder<T> {

    private final String format;
    private final Map<Integer, R> readers = new HashMap<>();
    private int lastId = -1;
    private R lastReader;
    private boolean keys;
    private RegistryConnection registry;
    private int maxReaders;
    private Counter hits;
    private Counter misses;

    protected FramedDecoder(String format) {
        this.format = format;
    }

    /** The reader of payloads written with {@code writer} (schema id {@code id}); throws when there is none. */
    protected abstract R reader(int id, SchemaText writer) throws Exception;

    /** Reads the payload that starts at {@code offset} of {@code bytes}. */
    protected abstract T read(R reader, int id, byte[] bytes, int offset) throws Exception;

    /** Decodes keys instead of values from now on. */
    void decodeKeys() {
        keys = true;
    }

    /** Whether this decoder decodes keys. */
    protected boolean keys() {
        return keys;
    }

    @Override
    public synchronized void open(FormatContext context) {
        registry = RegistryConnection.open(context, format);
        maxReaders = registry.config().cache().byId();
        hits = registry.metrics().cacheLookups("id", "hit");
        misses = registry.metrics().cacheLookups("id", "miss");
    }

    @Override
    public synchronized T decode(byte[] payload, RecordMeta meta) throws Exception {
        byte[] bytes = keys ? meta.key() : payload;
        if (bytes == null) {
            if (keys) {
                return null;
            }
            throw new IllegalArgumentException("tombstone (null payload) cannot be decoded as " + format);
        }
        if (registry == null) {
            throw new IllegalStateException(format + " decoder used before its source opened it");
        }
        int id = WireFormat.schemaId(bytes);
        R reader;
        if (id == lastId) {
            reader = lastReader;
            hits.increment();
        } else {
            reader = readers.get(id);
            if (reader == null) {
                misses.increment();
                reader = readerOf(id);
                if (readers.size() >= maxReaders) {
                    readers.clear();
                }
                readers.put(id, reader);
            } else {
                hits.increment();
            }
            lastId = id;
            lastReader = reader;
        }
        try {
            return read(reader, id, bytes, WireFormat.HEADER_SIZE);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    format + " payload of " + (keys ? "key" : "value") + " with schema id " + id + " does not decode: "
                            + e,
                    e);
        }
    }

    /**
     * The reader of schema id {@code id}. The registry's failures, whether about the id or about a schema it
     * references, become the same kinds of error: unavailable a {@link RetryableException}, anything else a record
     * error naming the id.
     */
    private R readerOf(int id) throws Exception {
        SchemaText writer;
        try {
            writer = registry.client().schemaById(id);
        } catch (RegistryException e) {
            throw translated(
                    e,
                    "schema id " + id + " is not in the schema registry "
                            + registry.client().urls(),
                    "cannot get schema id " + id);
        }
        try {
            return reader(id, writer);
        } catch (RegistryException e) {
            throw translated(
                    e,
                    "schema id " + id + " references a schema that is not in the schema registry "
                            + registry.client().urls(),
                    "cannot get the schemas that schema id " + id + " references");
        }
    }

    private static RuntimeException translated(RegistryException e, String notFound, String failed) {
        if (e.unavailable()) {
            return new RetryableException(e.getMessage(), e);
        }
        if (e.notFound()) {
            return new IllegalArgumentException(notFound + " (" + e.getMessage() + ")", e);
        }
        return new IllegalArgumentException(failed + ": " + e.getMessage(), e);
    }

    /**
     * The registry client, for a format whose {@link #reader} needs more than the writer schema (the schemas it
     * references); a {@link RegistryException} it throws there is handled as one about the id.
     */
    protected final RegistryClient client() {
        return registry.client();
    }

    /** Fails unless {@code writer} is of {@code type}. */
    protected final void requireType(int id, SchemaText writer, String type) {
        if (!type.equals(writer.type())) {
            throw new IllegalArgumentException("schema id " + id + " is a " + writer.type() + " schema, not " + type
                    + ": this source decodes " + format);
        }
    }

    @Override
    public <K> Decoder<Keyed<K, T>> withKey(SchemaDecoder<K> keyDecoder) {
        return KeyedDecoder.of(keyDecoder, this);
    }

    @Override
    public String toString() {
        return format + (keys ? " keys" : "");
    }
}
