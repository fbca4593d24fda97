package io.etl.kafka.sink.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.etl.core.error.RecordException;
import io.etl.core.record.Header;
import io.etl.core.record.RecordMeta;
import io.etl.kafka.common.FormatContext;
import io.etl.kafka.sink.KafkaMessage;
import io.etl.kafka.sink.KafkaSink;
import io.etl.kafka.sink.MessageEncoder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Predicate;

/** The encoding bodies behind the builder's verbs ({@code bytes}, {@code json}, {@code with}, {@code envelope}). */
final class Encoders {

    /** Thread-safe once built; java.time values as ISO strings. */
    static final ObjectMapper JSON = JsonMapper.builder()
            .addModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .build();

    /** A writer per value class, so the serializer is looked up once per class, not once per record. */
    private static final ClassValue<ObjectWriter> WRITERS = new ClassValue<>() {
        @Override
        protected ObjectWriter computeValue(Class<?> type) {
            return JSON.writerFor(type);
        }
    };

    /** Each thread encodes through a generator of its own, kept from one value to the next. */
    private static final ReusedJsonGenerators GENERATORS = new ReusedJsonGenerators(JSON);

    private Encoders() {}

    static GuardedEncoder.Body<byte[]> bytes() {
        return (value, meta, outputIndex) -> new KafkaMessage(meta.key(), value, meta.headers(), null);
    }

    static GuardedEncoder.Body<Object> json() {
        return (value, meta, outputIndex) -> new KafkaMessage(meta.key(), toJson(value), meta.headers(), null);
    }

    static <T> GuardedEncoder.Body<T> json(Function<? super T, ?> keyFn) {
        return (value, meta, outputIndex) ->
                new KafkaMessage(keyBytes(keyFn.apply(value)), toJson(value), meta.headers(), null);
    }

    /** JSON written by the caller's {@code mapper}, whose settings apply as they are. */
    static GuardedEncoder.Body<Object> json(ObjectMapper mapper) {
        return (value, meta, outputIndex) -> new KafkaMessage(meta.key(), toJson(mapper, value), meta.headers(), null);
    }

    /** JSON written by the caller's {@code mapper}, keyed by {@code keyFn} (a key that is neither text nor bytes too). */
    static <T> GuardedEncoder.Body<T> json(Function<? super T, ?> keyFn, ObjectMapper mapper) {
        return (value, meta, outputIndex) ->
                new KafkaMessage(keyBytes(mapper, keyFn.apply(value)), toJson(mapper, value), meta.headers(), null);
    }

    static <T> GuardedEncoder.Body<T> custom(MessageEncoder<? super T> encoder) {
        return new GuardedEncoder.Body<>() {
            @Override
            public KafkaMessage encode(T value, RecordMeta meta, int outputIndex) {
                return encoder.encode(value, meta);
            }

            @Override
            public void open(FormatContext context) {
                encoder.open(context);
            }
        };
    }

    /**
     * The change envelope. Every message, tombstones included, carries {@code etl.operation},
     * {@code etl.source} and {@code etl.idempotency-key}; an upsert's value is
     * {@code {operation, id, idempotencyKey, document, metadata, annotations?}}.
     *
     * @param annotations static key/values echoed in every envelope value (omitted when empty)
     */
    static <T> GuardedEncoder.Body<T> envelope(
            Function<? super T, ?> idFn,
            Predicate<? super T> isDelete,
            Function<? super T, ?> documentFn,
            Map<String, String> annotations) {
        // sorted, so the envelope of a change is the same bytes on every replay whatever map the caller passed
        Map<String, String> ordered = annotations == null || annotations.isEmpty()
                ? null
                : Collections.unmodifiableMap(new TreeMap<>(annotations));
        return (value, meta, outputIndex) -> {
            Object idValue = idFn.apply(value);
            if (idValue == null) {
                throw RecordException.of(RecordException.ENCODE, "the envelope id function returned null", null);
            }
            String id = idValue instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : idValue.toString();
            boolean delete = isDelete.test(value);
            String operation = delete ? "delete" : "upsert";
            String idem = GuardedEncoder.idempotencyKey(meta, outputIndex);
            List<Header> headers = new ArrayList<>(meta.headers().size() + 3);
            for (Header h : meta.headers()) {
                if (!h.key().equals(KafkaSink.OPERATION_HEADER)
                        && !h.key().equals(KafkaSink.SOURCE_HEADER)
                        && !h.key().equals(KafkaSink.IDEMPOTENCY_KEY_HEADER)) {
                    headers.add(h);
                }
            }
            headers.add(Header.of(KafkaSink.OPERATION_HEADER, operation));
            headers.add(Header.of(KafkaSink.SOURCE_HEADER, meta.position()));
            headers.add(Header.of(KafkaSink.IDEMPOTENCY_KEY_HEADER, idem));
            byte[] key = id.getBytes(StandardCharsets.UTF_8);
            if (delete) {
                return new KafkaMessage(key, null, headers, null);
            }
            Map<String, Object> metadata = new LinkedHashMap<>();
            metadata.put("topic", meta.topic());
            metadata.put("partition", meta.partition());
            metadata.put("offset", meta.offset());
            metadata.put("timestamp", meta.timestamp());
            Map<String, Object> envelope = new LinkedHashMap<>();
            envelope.put("operation", operation);
            envelope.put("id", id);
            envelope.put("idempotencyKey", idem);
            envelope.put("document", documentFn.apply(value));
            envelope.put("metadata", metadata);
            if (ordered != null) {
                envelope.put("annotations", ordered);
            }
            return new KafkaMessage(key, toJson(envelope), headers, null);
        };
    }

    static byte[] toJson(Object value) {
        try {
            return value == null
                    ? JSON.writeValueAsBytes(null)
                    : GENERATORS.write(WRITERS.get(value.getClass()), value);
        } catch (IOException e) {
            throw notJson(value, e);
        }
    }

    static byte[] toJson(ObjectMapper mapper, Object value) {
        try {
            return mapper.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw notJson(value, e);
        }
    }

    /** The record error for a value Jackson cannot write (Jackson's own message, without its location). */
    private static RecordException notJson(Object value, IOException e) {
        return RecordException.of(
                RecordException.ENCODE,
                "cannot write " + (value == null ? "null" : value.getClass().getName()) + " as JSON: "
                        + (e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.toString()),
                e);
    }

    static byte[] keyBytes(Object key) {
        return keyBytes(JSON, key);
    }

    static byte[] keyBytes(ObjectMapper mapper, Object key) {
        if (key == null) {
            return null;
        }
        if (key instanceof String s) {
            return s.getBytes(StandardCharsets.UTF_8);
        }
        if (key instanceof byte[] b) {
            return b;
        }
        return mapper == JSON ? toJson(key) : toJson(mapper, key);
    }
}
