package io.etl.schema;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.kafka.common.SchemaRegistryConfig;
import io.etl.testkit.schema.SchemaRegistryServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.util.UUID;
import org.apache.avro.Conversions;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.util.Utf8;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Logical types through a real registry: Java values written, raw or Java values read back. */
class AvroLogicalTypesTest {

    private static final Schema PAYMENT = new Schema.Parser().parse("""
                    {"type": "record", "name": "Payment", "namespace": "io.etl.fixtures", "fields": [
                      {"name": "amount", "type": {"type": "bytes", "logicalType": "decimal", "precision": 12, "scale": 2}},
                      {"name": "at", "type": {"type": "long", "logicalType": "timestamp-millis"}},
                      {"name": "day", "type": {"type": "int", "logicalType": "date"}},
                      {"name": "ref", "type": {"type": "string", "logicalType": "uuid"}}
                    ]}""");

    private static final BigDecimal AMOUNT = new BigDecimal("1234.50");
    private static final Instant AT = Instant.parse("2026-12-07T10:15:30.123Z");
    private static final LocalDate DAY = LocalDate.parse("2026-12-07");
    private static final UUID REF = UUID.fromString("0b5c1e4e-3f1a-4d0e-9d8e-6f1b2c3d4e5f");

    private final SchemaRegistryServer registry = SchemaRegistryServer.start();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final SchemaRegistryConfig config =
            SchemaRegistryConfig.custom().url(registry.url()).autoRegister(true).build();

    @AfterEach
    void stop() {
        registry.close();
    }

    @Test
    void shouldWriteJavaValuesAsTheSameBytesAsTheirRawForm() {
        GenericRecord javaValues = new GenericData.Record(PAYMENT);
        javaValues.put("amount", AMOUNT);
        javaValues.put("at", AT);
        javaValues.put("day", DAY);
        javaValues.put("ref", REF);
        GenericRecord raw = new GenericData.Record(PAYMENT);
        raw.put("amount", new Conversions.DecimalConversion().toBytes(AMOUNT, null, LogicalTypes.decimal(12, 2)));
        raw.put("at", AT.toEpochMilli());
        raw.put("day", (int) DAY.toEpochDay());
        raw.put("ref", REF.toString());

        assertThat(encode(javaValues)).isEqualTo(encode(raw));
    }

    @Test
    void shouldReadJavaValuesOnlyWhenAsked() throws Exception {
        GenericRecord written = new GenericData.Record(PAYMENT);
        written.put("amount", AMOUNT);
        written.put("at", AT);
        written.put("day", DAY);
        written.put("ref", REF);
        byte[] bytes = encode(written);

        GenericRecord converted = decode(Avro.decoderWithLogicalTypes(PAYMENT), bytes);
        assertThat(converted.get("amount")).isEqualTo(AMOUNT);
        assertThat(converted.get("at")).isEqualTo(AT);
        assertThat(converted.get("day")).isEqualTo(DAY);
        assertThat(converted.get("ref")).isEqualTo(REF);
        assertThat(decode(Avro.decoderWithLogicalTypes(), bytes).get("amount")).isEqualTo(AMOUNT);

        GenericRecord plain = decode(Avro.decoder(PAYMENT), bytes);
        assertThat(plain.get("amount")).isInstanceOf(ByteBuffer.class);
        assertThat(plain.get("at")).isEqualTo(AT.toEpochMilli());
        assertThat(plain.get("day")).isEqualTo((int) DAY.toEpochDay());
        assertThat(plain.get("ref")).isEqualTo(new Utf8(REF.toString()));
    }

    private byte[] encode(GenericRecord record) {
        SchemaEncoder<GenericRecord> encoder = Avro.encoder();
        encoder.open(Fixtures.context(config, "payments", meters));
        return encoder.encode(record, Fixtures.meta("payments", null, null)).value();
    }

    private GenericRecord decode(SchemaDecoder<GenericRecord> decoder, byte[] bytes) throws Exception {
        decoder.open(Fixtures.context(config, "payments", meters));
        return decoder.decode(bytes, Fixtures.meta("payments", null, bytes));
    }
}
