package io.etl.kafka.source.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.etl.core.record.RecordMeta;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class DecodersTest {

    private static final RecordMeta META = RecordMeta.of("t", 0, 7);

    record Order(String id, double amount, Instant ts) {}

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void bytesArePassedOnWithoutACopy() throws Exception {
        byte[] payload = {1, 2, 3};
        assertThat(Decoders.bytes().decode(payload, META)).isSameAs(payload);
        assertThat(Decoders.bytes().decode(null, META)).isNull();
    }

    @Test
    void stringIsUtf8AndTombstoneIsNull() throws Exception {
        assertThat(Decoders.string().decode(utf8("grüße"), META)).isEqualTo("grüße");
        assertThat(Decoders.string().decode(null, META)).isNull();
    }

    @Test
    void jsonIgnoresUnknownPropertiesAndReadsJavaTime() throws Exception {
        Order order = Decoders.json(Order.class, Decoders.MAPPER)
                .decode(
                        utf8("{\"id\":\"o1\",\"amount\":12.5,\"ts\":\"2024-05-01T10:00:00Z\",\"added_later\":true}"),
                        META);
        assertThat(order).isEqualTo(new Order("o1", 12.5, Instant.parse("2024-05-01T10:00:00Z")));
    }

    @Test
    void malformedJsonFails() {
        assertThatThrownBy(() -> Decoders.json(Order.class, Decoders.MAPPER).decode(utf8("{\"id\": "), META))
                .isInstanceOf(JsonProcessingException.class);
        assertThatThrownBy(() -> Decoders.json(Order.class, Decoders.MAPPER).decode(new byte[0], META))
                .isInstanceOf(JsonProcessingException.class);
    }

    @Test
    void jsonTombstoneAndJsonNullAreDecodeFailures() {
        assertThatThrownBy(() -> Decoders.json(Order.class, Decoders.MAPPER).decode(null, META))
                .hasMessage("tombstone (null payload) cannot be decoded as Order");
        assertThatThrownBy(() -> Decoders.json(Order.class, Decoders.MAPPER).decode(utf8("null"), META))
                .hasMessage("JSON null cannot be decoded as Order");
    }

    @Test
    void jsonTreeReadsAnyDocument() throws Exception {
        JsonNode node = Decoders.jsonTree(Decoders.MAPPER).decode(utf8("{\"a\":[1,2]}"), META);
        assertThat(node.get("a").get(1).asInt()).isEqualTo(2);
        assertThatThrownBy(() -> Decoders.jsonTree(Decoders.MAPPER).decode(null, META))
                .hasMessageContaining("tombstone");
    }
}
