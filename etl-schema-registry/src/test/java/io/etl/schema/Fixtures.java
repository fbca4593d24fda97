package io.etl.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etl.core.record.RecordMeta;
import io.etl.kafka.common.FormatContext;
import io.etl.kafka.common.SchemaRegistryConfig;
import io.etl.schema.internal.WireFormat;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Helpers of the format tests: payloads written by Confluent's serializers, and contexts. */
final class Fixtures {

    static final Path DIR = Path.of("src", "test", "fixtures", "confluent");
    private static final ObjectMapper JSON = new ObjectMapper();

    private Fixtures() {}

    static byte[] bytes(String name) {
        try {
            return Files.readAllBytes(DIR.resolve(name + ".bin"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static JsonNode meta(String name) {
        try {
            return JSON.readTree(DIR.resolve(name + ".json").toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static FormatContext context(SchemaRegistryConfig registry, String topic, SimpleMeterRegistry meters) {
        return new FormatContext("sink 'test'", "sinks.test.kafka", List.of(topic), registry, meters, null);
    }

    static RecordMeta meta(String topic, byte[] key, byte[] value) {
        return new RecordMeta(topic, 0, 0L, 0L, key, List.of(), value);
    }

    /** {@code json} framed for schema {@code id}. */
    static byte[] framedJson(int id, String json) {
        byte[] payload = json.getBytes(StandardCharsets.UTF_8);
        byte[] bytes = new byte[WireFormat.HEADER_SIZE + payload.length];
        WireFormat.writeHeader(bytes, id);
        System.arraycopy(payload, 0, bytes, WireFormat.HEADER_SIZE, payload.length);
        return bytes;
    }
}
