package io.etl.schema.internal;

import io.etl.core.error.ConfigException;
import io.etl.core.error.FatalException;
import io.etl.core.error.RecordException;
import io.etl.core.record.RecordMeta;
import io.etl.kafka.common.FormatContext;
import io.etl.kafka.common.SchemaRegistryConfig;
import io.etl.kafka.sink.KafkaMessage;
import io.etl.kafka.sink.MessageEncoder;
import io.etl.schema.SchemaEncoder;
import io.micrometer.core.instrument.Counter;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every registry-framed encoder does: finds the id of each value's schema once (lookup, registration or
 * the subject's latest version, as {@code schema_registry} says), keeps it with the format's writer, and frames
 * the payload. A schema the registry refuses is a record error naming the subject (or a start-up failure for an
 * encoder that knows its schema in advance); a registry that does not answer is asked again with a capped
 * backoff, holding the pipeline, so nothing is skipped. The loops of a pipeline with {@code pipeline.threads} above
 * 1 share one instance, whose cache and reused buffers are not thread-safe: {@link #open} and the framing of a
 * value hold its lock (uncontended with one loop).
 *
 * @param <T> value type
 * @param <S> what identifies a value's schema (an Avro {@code Schema}, a Protobuf descriptor)
 * @param <W> the format's writer for one schema
 */
public abstract class FramedEncoder<T, S, W> implements SchemaEncoder<T> {

    private static final Logger LOG = LoggerFactory.getLogger(FramedEncoder.class);
    static final long INITIAL_BACKOFF_MILLIS = 100;
    static final long MAX_BACKOFF_MILLIS = 5000;

    /** The id and framing of one schema, and the format's writer for it. */
    protected record Framing<W>(int id, byte[] prefix, W writer) {}

    private final String format;
    private final Map<S, Framing<W>> framings = new HashMap<>();
    private S lastSchema;
    private Framing<W> lastFraming;
    private boolean keys;
    private String topic;
    private RegistryConnection registry;
    private Counter hits;
    private Counter misses;

    protected FramedEncoder(String format) {
        this.format = format;
    }

    /** The schema of {@code value}. */
    protected abstract S schemaOf(T value);

    /** The schema as the registry stores it. */
    protected abstract SchemaText textOf(S schema);

    /** The record name the {@code record} and {@code topic_record} subject strategies use. */
    protected abstract String nameOf(S schema);

    /** What follows the magic byte and id before the payload (Protobuf's message indexes); none by default. */
    protected byte[] indexesOf(S schema) {
        return new byte[0];
    }

    /** The format's writer for {@code schema}. */
    protected abstract W writerOf(S schema);

    /** The framed bytes: {@code framing.prefix()} followed by the encoded value. */
    protected abstract byte[] write(T value, Framing<W> framing) throws Exception;

    /**
     * Whether the subject's {@code registered} schema is {@code own} (for {@code use_latest_version}); may ask the
     * {@link #client()} for the schemas {@code registered} references.
     */
    protected boolean sameSchema(SchemaText registered, S own) {
        return registered.schema().equals(textOf(own).schema());
    }

    /**
     * Another text under which the schema may have been registered (by a producer that kept properties this
     * module leaves out), tried when a lookup by {@link #textOf} finds nothing; null when there is none.
     */
    protected SchemaText alternativeTextOf(S schema) {
        return null;
    }

    /**
     * The text to register ({@code register} true) or look up for {@code schema}: {@link #textOf} by default. A
     * format whose schemas use other registered schemas resolves them here through {@code client}, registering or
     * looking them up as {@code register} says, and names them as references. A {@link RegistryException} that is
     * {@linkplain RegistryException#unavailable() unavailable} is asked again like the main request; a refusal of
     * a schema used by {@code schema} is a {@link SchemaRefused} naming it. Runs once per schema the encoder puts
     * to use, under the encoder's lock.
     */
    protected SchemaText textToSend(S schema, RegistryClient client, boolean register) {
        return textOf(schema);
    }

    /** The registry client, once the sink has opened this encoder. */
    protected final RegistryClient client() {
        return registry.client();
    }

    /** A schema known before the first value, resolved when the sink opens; null when there is none. */
    protected S knownSchema() {
        return null;
    }

    /** Encodes keys from now on. */
    void encodeKeys() {
        keys = true;
    }

    @Override
    public synchronized void open(FormatContext context) {
        registry = RegistryConnection.open(context, format);
        if (context.topics().size() != 1) {
            throw ConfigException.of(context.path(), format + " encoder needs the one topic its sink writes");
        }
        topic = context.topics().get(0);
        hits = registry.metrics().cacheLookups("schema", "hit");
        misses = registry.metrics().cacheLookups("schema", "miss");
        S known = knownSchema();
        if (known != null) {
            try {
                framings.put(known, framingOf(known, false));
            } catch (SchemaRefused e) {
                throw ConfigException.of(registry.path(), e.getMessage(), e);
            } catch (RegistryException e) {
                throw new FatalException(
                        registry.connector() + ": cannot check " + format + " schema at start-up: " + e.getMessage(),
                        e);
            }
        }
    }

    @Override
    public KafkaMessage encode(T value, RecordMeta meta) {
        return new KafkaMessage(meta.key(), serialize(value), meta.headers(), null);
    }

    /** The framed bytes of {@code value}; {@code null} stays null (a tombstone). */
    synchronized byte[] serialize(T value) {
        if (value == null) {
            return null;
        }
        if (registry == null) {
            throw new IllegalStateException(format + " encoder used before its sink opened it");
        }
        S schema = schemaOf(value);
        Framing<W> framing;
        if (schema == lastSchema) {
            framing = lastFraming;
            hits.increment();
        } else {
            framing = framings.get(schema);
            if (framing == null) {
                misses.increment();
                try {
                    framing = framingOf(schema, true);
                } catch (SchemaRefused e) {
                    throw RecordException.of(RecordException.ENCODE, e.getMessage(), e);
                }
                framings.put(schema, framing);
            } else {
                hits.increment();
            }
            lastSchema = schema;
            lastFraming = framing;
        }
        try {
            return write(value, framing);
        } catch (RecordException e) {
            throw e;
        } catch (Exception e) {
            throw RecordException.of(
                    RecordException.ENCODE,
                    "cannot write " + format + " value with schema id " + framing.id() + ": " + e,
                    e);
        }
    }

    private Framing<W> framingOf(S schema, boolean waitForRegistry) {
        String subject = registry.config().subjectStrategy().subject(topic, keys, nameOf(schema));
        int id = waitForRegistry ? idWaiting(subject, schema) : id(subject, schema);
        byte[] indexes = indexesOf(schema);
        byte[] prefix = new byte[WireFormat.HEADER_SIZE + indexes.length];
        WireFormat.writeHeader(prefix, id);
        System.arraycopy(indexes, 0, prefix, WireFormat.HEADER_SIZE, indexes.length);
        Framing<W> framing = new Framing<>(id, prefix, writerOf(schema));
        // one line per schema put to use: rare, and what an operator looks for after a deployment
        LOG.info(
                "{}: writes {} {} with schema id {} of subject '{}'",
                registry.connector(),
                format,
                keys ? "keys" : "values",
                id,
                subject);
        return framing;
    }

    /** {@link #id}, asking again with a capped backoff while the registry does not answer. */
    private int idWaiting(String subject, S schema) {
        long backoff = INITIAL_BACKOFF_MILLIS;
        long since = System.nanoTime();
        int attempts = 0;
        while (true) {
            try {
                int id = id(subject, schema);
                if (attempts > 0) {
                    LOG.info(
                            "{}: the schema registry answered after {} ms",
                            registry.connector(),
                            (System.nanoTime() - since) / 1_000_000);
                }
                return id;
            } catch (RegistryException e) {
                if (!e.unavailable()) {
                    throw e;
                }
                if (attempts++ == 0) {
                    LOG.warn(
                            "{}: cannot get the id of its {} schema for subject '{}' ({}); the pipeline holds and"
                                    + " asks again with a backoff of up to {} ms",
                            registry.connector(),
                            format,
                            subject,
                            e.getMessage(),
                            MAX_BACKOFF_MILLIS);
                }
                try {
                    Thread.sleep(backoff);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw new FatalException(
                            registry.connector() + ": interrupted while waiting for the schema" + " registry: "
                                    + e.getMessage(),
                            e);
                }
                backoff = Math.min(MAX_BACKOFF_MILLIS, backoff * 2);
            }
        }
    }

    /** The id to write {@code schema} with under {@code subject}, as {@code schema_registry} says to find it. */
    private int id(String subject, S schema) {
        SchemaRegistryConfig config = registry.config();
        RegistryClient client = registry.client();
        try {
            if (config.useLatestVersion()) {
                SubjectVersion latest = client.version(subject, "latest");
                if (!sameLatest(subject, latest, schema)) {
                    throw new SchemaRefused(format + " schema " + nameOf(schema) + " is not version "
                            + latest.version() + " (the latest) of subject '" + subject
                            + "', which use_latest_version writes with");
                }
                return latest.id();
            }
            SchemaText text = textToSend(schema, client, config.autoRegister());
            if (config.autoRegister()) {
                return client.register(subject, text);
            }
            try {
                return client.idOf(subject, text);
            } catch (RegistryException e) {
                SchemaText alternative = alternativeTextOf(schema);
                if (alternative == null || !e.notFound()) {
                    throw e;
                }
                return client.idOf(subject, alternative);
            }
        } catch (RegistryException e) {
            if (e.unavailable()) {
                throw e;
            }
            throw new SchemaRefused(refusal(subject, schema, e), e);
        }
    }

    /**
     * {@link #sameSchema} of the subject's latest version. When the registry cannot give the schemas that version
     * references (other than by being unavailable), the schema is refused with the registry's reason.
     */
    private boolean sameLatest(String subject, SubjectVersion latest, S schema) {
        try {
            return sameSchema(latest.schema(), schema);
        } catch (RegistryException e) {
            if (e.unavailable()) {
                throw e;
            }
            throw new SchemaRefused(
                    format + " schema " + nameOf(schema) + " cannot be compared with version " + latest.version()
                            + " (the latest) of subject '" + subject + "', which use_latest_version writes with: "
                            + e.getMessage(),
                    e);
        }
    }

    private String refusal(String subject, S schema, RegistryException e) {
        String what = format + " schema " + nameOf(schema);
        if (e.errorCode() == RegistryException.INCOMPATIBLE || e.status() == 409) {
            return what + " is incompatible with subject '" + subject + "'" + latestVersion(subject) + ": "
                    + e.getMessage();
        }
        if (e.errorCode() == RegistryException.SUBJECT_NOT_FOUND) {
            return "subject '" + subject + "' does not exist and auto_register is false: register " + what
                    + " first, or set auto_register: true";
        }
        if (e.errorCode() == RegistryException.SCHEMA_NOT_FOUND
                || e.errorCode() == RegistryException.VERSION_NOT_FOUND
                || e.notFound()) {
            return what + " is not registered under subject '" + subject + "'" + latestVersion(subject)
                    + " and auto_register is false: register it first, or set auto_register: true";
        }
        return what + " was refused for subject '" + subject + "': " + e.getMessage();
    }

    /** {@code " (latest version N)"}, or nothing when that cannot be told. */
    private String latestVersion(String subject) {
        try {
            return " (latest version "
                    + registry.client().version(subject, "latest").version() + ")";
        } catch (RegistryException e) {
            return "";
        }
    }

    @Override
    public <K> MessageEncoder<T> withKey(Function<? super T, ? extends K> keyFn, SchemaEncoder<K> keyEncoder) {
        return KeyedEncoder.withKey(this, keyFn, keyEncoder);
    }

    @Override
    public String toString() {
        return format + (keys ? " keys" : "");
    }

    /** The registry refused the schema or one it uses; the message names the subject. */
    static final class SchemaRefused extends RuntimeException {
        SchemaRefused(String message) {
            super(message);
        }

        SchemaRefused(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
