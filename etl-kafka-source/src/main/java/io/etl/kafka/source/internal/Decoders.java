package io.etl.kafka.source.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.etl.core.record.RecordMeta;
import io.etl.kafka.source.Decoder;
import java.nio.charset.StandardCharsets;

/** The built-in payload decoders. */
public final class Decoders {

    /**
     * The mapper behind {@code json(..)} and {@code jsonTree()}: unknown JSON properties are ignored,
     * {@code java.time} types are supported. Thread-safe once built.
     */
    public static final ObjectMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
                    .recyclerPool(new LastThreadRecyclerPool())
                    .build())
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(DeserializationFeature.ADJUST_DATES_TO_CONTEXT_TIME_ZONE)
            .addModule(new JavaTimeModule())
            .build();

    private static final Decoder<byte[]> BYTES = (payload, meta) -> payload;
    private static final Decoder<String> STRING =
            (payload, meta) -> payload == null ? null : new String(payload, StandardCharsets.UTF_8);

    private Decoders() {}

    /** The payload itself. */
    public static Decoder<byte[]> bytes() {
        return BYTES;
    }

    /** The payload as UTF-8 text. */
    public static Decoder<String> string() {
        return STRING;
    }

    /** JSON into {@code type} with {@code mapper}. */
    public static <T> Decoder<T> json(Class<T> type, ObjectMapper mapper) {
        return new JsonDecoder<>(mapper.readerFor(type), type.getSimpleName());
    }

    /** JSON trees. */
    public static Decoder<JsonNode> jsonTree(ObjectMapper mapper) {
        return new JsonDecoder<>(mapper.readerFor(JsonNode.class), "JSON tree");
    }

    /** Reads one JSON document per payload; a tombstone cannot be decoded. */
    private static final class JsonDecoder<T> implements Decoder<T> {

        private final ObjectReader reader;
        private final String target;

        JsonDecoder(ObjectReader reader, String target) {
            this.reader = reader;
            this.target = target;
        }

        @Override
        public T decode(byte[] payload, RecordMeta meta) throws Exception {
            if (payload == null) {
                throw new IllegalArgumentException("tombstone (null payload) cannot be decoded as " + target);
            }
            T value = reader.readValue(payload);
            if (value == null) {
                throw new IllegalArgumentException("JSON null cannot be decoded as " + target);
            }
            return value;
        }

        @Override
        public String toString() {
            return "json(" + target + ")";
        }
    }
}
