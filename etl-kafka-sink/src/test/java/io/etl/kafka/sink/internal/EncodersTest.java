package io.etl.kafka.sink.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.etl.core.config.DataSize;
import io.etl.core.error.RecordException;
import io.etl.core.record.Header;
import io.etl.core.record.RecordMeta;
import io.etl.core.sink.Encoder;
import io.etl.core.sink.Sink;
import io.etl.kafka.sink.Change;
import io.etl.kafka.sink.KafkaMessage;
import io.etl.kafka.sink.KafkaSink;
import io.etl.kafka.sink.KafkaSinkConfig;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EncodersTest {

    private static final RecordMeta META =
            new RecordMeta("orders", 3, 42L, 1000L, bytes("k1"), List.of(Header.of("trace", "abc")));

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static KafkaSinkConfig config() {
        return KafkaSinkConfig.custom()
                .brokers("b:9092")
                .topic("out")
                .build()
                .withMaxMessageBytes(DataSize.ofBytes(100));
    }

    @Test
    void bytesKeepsSourceKeyAndHeadersAndPayload() {
        Encoder<byte[], KafkaMessage> e =
                KafkaSink.from("s", config(), null).bytes().encoder();
        KafkaMessage m = e.encode(bytes("payload"), META, 0);
        assertThat(m.key()).isEqualTo(bytes("k1"));
        assertThat(m.value()).isEqualTo(bytes("payload"));
        assertThat(m.headers()).containsExactly(Header.of("trace", "abc"));
        assertThat(e.encode(new byte[0], META, 0).value()).isEmpty();
        assertThat(e.encode(null, META, 0).isTombstone()).isTrue();
    }

    @Test
    void jsonWithKeyFunctionKeysByTheValue() {
        Sink<Map<String, Object>, KafkaMessage> sink =
                KafkaSink.from("s", config(), null).json(v -> v.get("id"));
        KafkaMessage m = sink.encoder().encode(Map.of("id", "o-1"), META, 0);
        assertThat(new String(m.key(), StandardCharsets.UTF_8)).isEqualTo("o-1");
        assertThat(new String(m.value(), StandardCharsets.UTF_8)).isEqualTo("{\"id\":\"o-1\"}");
        assertThat(Encoders.keyBytes(7)).isEqualTo(bytes("7"));
        assertThat(Encoders.keyBytes(new byte[] {1})).isEqualTo(new byte[] {1});
    }

    /** A value written with the caller's mapper: its naming strategy shows in the bytes, key and headers kept. */
    record Amount(long amountCents) {}

    @Test
    void jsonWithOwnMapperAppliesThatMappersSettings() {
        JsonMapper snake = JsonMapper.builder()
                .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
                .build();
        KafkaMessage m =
                KafkaSink.from("s", config(), null).json(snake).encoder().encode(new Amount(250), META, 0);
        assertThat(new String(m.value(), StandardCharsets.UTF_8)).isEqualTo("{\"amount_cents\":250}");
        assertThat(m.key()).isEqualTo(bytes("k1"));
        assertThat(m.headers()).containsExactly(Header.of("trace", "abc"));
        KafkaSinkConfig config = config();
        assertThat(KafkaSink.from("s", config, null).json(snake).config())
                .as("the sink keeps its settings")
                .isSameAs(config);

        KafkaMessage keyed = KafkaSink.from("s", config(), null)
                .<Amount>json(a -> a, snake)
                .encoder()
                .encode(new Amount(7), META, 0);
        assertThat(new String(keyed.key(), StandardCharsets.UTF_8)).isEqualTo("{\"amount_cents\":7}");
        assertThat(new String(
                        KafkaSink.from("s", config(), null)
                                .json()
                                .encoder()
                                .encode(new Amount(1), META, 0)
                                .value(),
                        StandardCharsets.UTF_8))
                .as("the shared mapper is untouched")
                .isEqualTo("{\"amountCents\":1}");
    }

    @Test
    void idempotencyKeyHeaderIsDeterministicPerOutput() {
        Encoder<Object, KafkaMessage> e = KafkaSink.from("s", config(), null)
                .idempotencyKeyHeader()
                .json()
                .encoder();
        KafkaMessage first = e.encode("x", META, 1);
        assertThat(first.headers()).contains(Header.of(KafkaSink.IDEMPOTENCY_KEY_HEADER, "orders:3:42:1"));
        assertThat(e.encode("x", META, 1)).isEqualTo(first);
    }

    @Test
    void oversizedMessageIsARecordErrorCountingKeyValueAndHeaders() {
        Encoder<byte[], KafkaMessage> e =
                KafkaSink.from("s", config(), null).bytes().encoder();
        // key 2 + header "trace"(5) + "abc"(3) = 10; value 90 -> exactly 100 passes
        assertThat(e.encode(new byte[90], META, 0).sizeInBytes()).isEqualTo(100);
        RecordException error = catchThrowableOfType(RecordException.class, () -> e.encode(new byte[91], META, 0));
        assertThat(error.reason()).isEqualTo(RecordException.OVERSIZED);
        assertThat(error.detail()).isEqualTo("message of 101 bytes exceeds max_message_bytes 100 for topic out");
    }

    @Test
    void customEncoderSetsKeyHeadersAndTombstones() {
        Encoder<String, KafkaMessage> e = KafkaSink.from("s", config(), null)
                .<String>with((v, meta) -> v.isEmpty()
                        ? KafkaMessage.builder().key("gone").tombstone().build()
                        : KafkaMessage.builder()
                                .key(v)
                                .header("h", "1")
                                .value("")
                                .build())
                .encoder();
        KafkaMessage tombstone = e.encode("", META, 0);
        assertThat(tombstone.isTombstone()).isTrue();
        KafkaMessage empty = e.encode("a", META, 0);
        assertThat(empty.value()).isEmpty();
        assertThat(empty.isTombstone()).isFalse();
        assertThat(empty.headers()).containsExactly(Header.of("h", "1"));
        assertThat(e.shardHash(empty, META)).isEqualTo(Arrays.hashCode(bytes("a")));
    }

    @Test
    void envelopeWrapsUpsertsAndTurnsDeletesIntoTombstones() throws Exception {
        Encoder<Change<Map<String, Object>>, KafkaMessage> e = KafkaSink.from(
                        "s",
                        KafkaSinkConfig.custom().brokers("b:9092").topic("out").build(),
                        null)
                .<Map<String, Object>>envelope()
                .encoder();
        KafkaMessage upsert = e.encode(Change.upsert("42", Map.of("name", "plush")), META, 0);
        JsonNode json = Encoders.JSON.readTree(upsert.value());
        assertThat(json.get("operation").asText()).isEqualTo("upsert");
        assertThat(json.get("id").asText()).isEqualTo("42");
        assertThat(json.get("idempotencyKey").asText()).isEqualTo("orders:3:42:0");
        assertThat(json.get("document").get("name").asText()).isEqualTo("plush");
        assertThat(json.get("metadata").get("offset").asLong()).isEqualTo(42);
        assertThat(new String(upsert.key(), StandardCharsets.UTF_8)).isEqualTo("42");

        KafkaMessage delete = e.encode(Change.delete("42"), META, 0);
        assertThat(delete.isTombstone()).isTrue();
        assertThat(delete.headers())
                .contains(
                        Header.of(KafkaSink.OPERATION_HEADER, "delete"),
                        Header.of(KafkaSink.SOURCE_HEADER, "orders-3@42"),
                        Header.of(KafkaSink.IDEMPOTENCY_KEY_HEADER, "orders:3:42:0"));
    }

    @Test
    void envelopeEchoesTheSectionsAnnotationsInEveryValue() throws Exception {
        Map<String, String> annotations = new LinkedHashMap<>();
        annotations.put("team", "catalog");
        annotations.put("env", "prod");
        Encoder<Change<Map<String, Object>>, KafkaMessage> e = KafkaSink.from(
                        "s",
                        KafkaSinkConfig.custom()
                                .brokers("b:9092")
                                .topic("out")
                                .build()
                                .withAnnotations(annotations),
                        null)
                .<Map<String, Object>>envelope()
                .encoder();

        KafkaMessage first = e.encode(Change.upsert("42", Map.of("name", "plush")), META, 0);
        KafkaMessage again = e.encode(Change.upsert("42", Map.of("name", "plush")), META, 0);
        JsonNode json = Encoders.JSON.readTree(first.value());

        assertThat(json.get("annotations").properties())
                .extracting(Map.Entry::getKey)
                .containsExactly("env", "team");
        assertThat(json.get("annotations").get("team").asText()).isEqualTo("catalog");
        assertThat(again.value())
                .as("the same change encodes to the same bytes")
                .isEqualTo(first.value());
        assertThat(first.headers())
                .contains(
                        Header.of(KafkaSink.OPERATION_HEADER, "upsert"),
                        Header.of(KafkaSink.SOURCE_HEADER, "orders-3@42"),
                        Header.of(KafkaSink.IDEMPOTENCY_KEY_HEADER, "orders:3:42:0"));
        assertThat(e.encode(Change.upsert("42", Map.of()), META, 1).headers())
                .contains(Header.of(KafkaSink.IDEMPOTENCY_KEY_HEADER, "orders:3:42:1"));

        KafkaMessage plain = KafkaSink.from(
                        "s",
                        KafkaSinkConfig.custom().brokers("b:9092").topic("out").build(),
                        null)
                .<Map<String, Object>>envelope()
                .encoder()
                .encode(Change.upsert("42", Map.of()), META, 0);
        assertThat(Encoders.JSON.readTree(plain.value()).has("annotations"))
                .as("none configured")
                .isFalse();
    }

    @Test
    void builderRequiresAValueOrATombstone() {
        assertThat(catchThrowableOfType(
                        IllegalStateException.class,
                        () -> KafkaMessage.builder().key("k").build()))
                .hasMessageContaining("tombstone");
    }
}
