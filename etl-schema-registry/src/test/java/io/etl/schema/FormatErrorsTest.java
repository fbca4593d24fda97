package io.etl.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.etl.core.error.ConfigException;
import io.etl.core.error.RecordException;
import io.etl.core.error.RetryableException;
import io.etl.kafka.common.FormatContext;
import io.etl.kafka.common.SchemaRegistryConfig;
import io.etl.kafka.source.Decoder;
import io.etl.schema.internal.WireFormat;
import io.etl.testkit.schema.SchemaRegistryServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What decoders and encoders do with bad input, a refusing registry and one that does not answer. */
class FormatErrorsTest {

    private static final Schema V1 = new Schema.Parser()
            .parse(Fixtures.meta("avro-payment-v1").get("schema").asText());
    private static final Schema V2 = new Schema.Parser()
            .parse(Fixtures.meta("avro-payment-v2").get("schema").asText());

    private final SchemaRegistryServer registry = SchemaRegistryServer.start();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final SchemaRegistryConfig config =
            SchemaRegistryConfig.custom().url(registry.url()).build();

    @AfterEach
    void stop() {
        registry.close();
    }

    private SchemaDecoder<GenericRecord> openDecoder() {
        SchemaDecoder<GenericRecord> decoder = Avro.decoder();
        decoder.open(Fixtures.context(config, "payments", meters));
        return decoder;
    }

    @Test
    void shouldNameTheMagicByteOfAnUnframedPayload() {
        SchemaDecoder<GenericRecord> decoder = openDecoder();

        assertThatThrownBy(() -> decoder.decode("{\"id\":1}".getBytes(), Fixtures.meta("payments", null, null)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown magic byte 0x7b");
    }

    @Test
    void shouldCallAnIdTheRegistryDoesNotHaveARecordError() {
        SchemaDecoder<GenericRecord> decoder = openDecoder();

        assertThatThrownBy(
                        () -> decoder.decode(Fixtures.bytes("avro-payment-v1"), Fixtures.meta("payments", null, null)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("schema id 1 is not in the schema registry");
    }

    @Test
    void shouldAskForARetryWhileTheRegistryDoesNotAnswer() throws Exception {
        registry.register("payments-value", "AVRO", V1.toString());
        SchemaDecoder<GenericRecord> decoder = openDecoder();
        registry.stop();

        assertThatThrownBy(
                        () -> decoder.decode(Fixtures.bytes("avro-payment-v1"), Fixtures.meta("payments", null, null)))
                .isInstanceOf(RetryableException.class)
                .hasMessageContaining("did not answer");

        registry.restart();
        assertThat(decoder.decode(Fixtures.bytes("avro-payment-v1"), Fixtures.meta("payments", null, null))
                        .get("amount"))
                .isEqualTo(1250L);
    }

    @Test
    void shouldNotAskAgainForAnIdItKnowsWhileTheRegistryIsDown() throws Exception {
        registry.register("payments-value", "AVRO", V1.toString());
        SchemaDecoder<GenericRecord> decoder = openDecoder();
        decoder.decode(Fixtures.bytes("avro-payment-v1"), Fixtures.meta("payments", null, null));
        registry.stop();

        for (int i = 0; i < 3; i++) {
            assertThat(decoder.decode(Fixtures.bytes("avro-payment-v1"), Fixtures.meta("payments", null, null)))
                    .isNotNull();
        }
        assertThat(meters.counter("etl.schema.cache.lookups", "cache", "id", "result", "hit")
                        .count())
                .isEqualTo(3.0);
    }

    @Test
    void shouldRejectAWriterSchemaTheReaderCannotResolve() {
        Schema reader = new Schema.Parser()
                .parse("{\"type\":\"record\",\"name\":\"Payment\",\"namespace\":\"io.etl.fixtures\",\"fields\":"
                        + "[{\"name\":\"id\",\"type\":\"int\"}]}");
        registry.register("payments-value", "AVRO", V1.toString());
        SchemaDecoder<GenericRecord> decoder = Avro.decoder(reader);
        decoder.open(Fixtures.context(config, "payments", meters));

        assertThatThrownBy(
                        () -> decoder.decode(Fixtures.bytes("avro-payment-v1"), Fixtures.meta("payments", null, null)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cannot be read with reader schema io.etl.fixtures.Payment");
    }

    @Test
    void shouldRequireTheSchemaRegistryBlock() {
        FormatContext without = new FormatContext(
                "source 'payments'", "source.payments.kafka", List.of("payments"), null, meters, null);

        assertThatThrownBy(() -> Avro.decoder().open(without))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("source.payments.kafka.schema_registry");
    }

    @Test
    void shouldFailTheStartWhenAKnownSchemaIsNotRegisteredAndAutoRegisterIsOff() {
        SchemaEncoder<GenericRecord> encoder = Avro.encoder(V1);

        assertThatThrownBy(() -> encoder.open(Fixtures.context(config, "ledger", meters)))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("sinks.test.kafka.schema_registry")
                .hasMessageContaining("subject 'ledger-value' does not exist and auto_register is false");
    }

    @Test
    void shouldNameSubjectAndVersionOfAnIncompatibleSchemaInTheRecordError() {
        registry.register("ledger-value", "AVRO", V2.toString());
        Schema incompatible = new Schema.Parser()
                .parse("{\"type\":\"record\",\"name\":\"Payment\",\"namespace\":\"io.etl.fixtures\",\"fields\":"
                        + "[{\"name\":\"id\",\"type\":\"string\"},{\"name\":\"extra\",\"type\":\"int\"}]}");
        SchemaEncoder<GenericRecord> encoder = Avro.encoder();
        encoder.open(Fixtures.context(config.withAutoRegister(true), "ledger", meters));
        GenericRecord record = new GenericData.Record(incompatible);
        record.put("id", "x");
        record.put("extra", 1);

        assertThatThrownBy(() -> encoder.encode(record, Fixtures.meta("payments", null, null)))
                .isInstanceOf(RecordException.class)
                .hasMessageContaining("incompatible with subject 'ledger-value' (latest version 1)");
    }

    @Test
    void shouldRegisterWhenAllowedAndWriteWithTheNewId() {
        SchemaEncoder<GenericRecord> encoder = Avro.encoder(V1);
        encoder.open(Fixtures.context(config.withAutoRegister(true), "ledger", meters));
        GenericRecord record = new GenericData.Record(V1);
        record.put("id", "x");
        record.put("amount", 5L);
        record.put("currency", "EUR");

        byte[] value =
                encoder.encode(record, Fixtures.meta("payments", null, null)).value();

        assertThat(value[0]).isZero();
        assertThat(registry.schema(value[4])).contains("Payment");
        assertThat(registry.requests("/subjects/ledger-value/versions")).isEqualTo(1);
    }

    @Test
    void shouldWriteAPrimitiveValueWithTheSchemaItWasGivenAndReadItBack() throws Exception {
        Schema string = Schema.create(Schema.Type.STRING);
        int id = registry.register("ledger-value", "AVRO", string.toString());
        SchemaEncoder<String> encoder = Avro.encoder(string);
        encoder.open(Fixtures.context(config, "ledger", meters));
        SchemaDecoder<GenericRecord> decoder = openDecoder();

        byte[] value =
                encoder.encode("k-17", Fixtures.meta("payments", null, null)).value();
        Object read = ((SchemaDecoder<?>) decoder).decode(value, Fixtures.meta("ledger", null, value));

        assertThat(WireFormat.schemaId(value)).isEqualTo(id);
        assertThat(read).hasToString("k-17");
    }

    @Test
    void shouldHandAPrimitiveValueOverAsTheTypeAskedForAndNameAnotherType() throws Exception {
        Schema string = Schema.create(Schema.Type.STRING);
        registry.register("ledger-value", "AVRO", string.toString());
        SchemaEncoder<String> encoder = Avro.encoder(string);
        encoder.open(Fixtures.context(config, "ledger", meters));
        byte[] value =
                encoder.encode("k-17", Fixtures.meta("payments", null, null)).value();
        SchemaDecoder<String> strings = Avro.decoder(string, String.class);
        strings.open(Fixtures.context(config, "ledger", meters));
        SchemaDecoder<Long> longs = Avro.decoder(string, Long.class);
        longs.open(Fixtures.context(config, "ledger", meters));

        String read = strings.decode(value, Fixtures.meta("ledger", null, value));
        Decoder<Keyed<String, String>> records =
                Avro.decoder(string, String.class).withKey(Avro.decoder(string, String.class));
        records.open(Fixtures.context(config, "ledger", meters));
        Keyed<String, String> keyed = records.decode(value, Fixtures.meta("ledger", value, value));

        assertThat(read).isEqualTo("k-17").isInstanceOf(String.class);
        assertThat(keyed).isEqualTo(new Keyed<>("k-17", "k-17"));
        assertThatThrownBy(() -> longs.decode(value, Fixtures.meta("ledger", null, value)))
                .hasMessageContaining("java.lang.Long")
                .hasMessageContaining("Utf8");
    }

    @Test
    void shouldNameTheMissingSchemaOfAValueThatDoesNotCarryOne() {
        SchemaEncoder<GenericRecord> encoder = Avro.encoder();
        encoder.open(Fixtures.context(config.withAutoRegister(true), "ledger", meters));
        @SuppressWarnings("unchecked") // what a caller ignoring the type's bound hands it
        SchemaEncoder<Object> untyped = (SchemaEncoder<Object>) (SchemaEncoder<?>) encoder;

        assertThatThrownBy(() -> untyped.encode(42L, Fixtures.meta("payments", null, null)))
                .hasMessageContaining("java.lang.Long")
                .hasMessageContaining("Avro.encoder(Schema)");
    }

    @Test
    void shouldWriteWithTheLatestVersionOnlyWhenItIsTheRecordsSchema() {
        int v1 = registry.register("ledger-value", "AVRO", V1.toString());
        SchemaEncoder<GenericRecord> encoder = Avro.encoder();
        encoder.open(Fixtures.context(config.withUseLatestVersion(true), "ledger", meters));
        GenericRecord ok = new GenericData.Record(V1);
        ok.put("id", "x");
        ok.put("amount", 5L);
        ok.put("currency", "EUR");
        GenericRecord other = new GenericData.Record(V2);
        other.put("id", "x");
        other.put("amount", 5L);
        other.put("currency", "EUR");

        assertThat(encoder.encode(ok, Fixtures.meta("payments", null, null)).value()[4])
                .isEqualTo((byte) v1);
        assertThatThrownBy(() -> encoder.encode(other, Fixtures.meta("payments", null, null)))
                .isInstanceOf(RecordException.class)
                .hasMessageContaining("is not version 1 (the latest) of subject 'ledger-value'");
    }

    @Test
    void shouldWaitForARegistryThatComesBackWhileEncoding() throws Exception {
        registry.register("ledger-value", "AVRO", V1.toString());
        SchemaEncoder<GenericRecord> encoder = Avro.encoder();
        encoder.open(Fixtures.context(config, "ledger", meters));
        GenericRecord record = new GenericData.Record(V1);
        record.put("id", "x");
        record.put("amount", 5L);
        record.put("currency", "EUR");
        registry.stop();
        Thread restarter = new Thread(() -> {
            await().pollDelay(Duration.ofMillis(700)).until(() -> true);
            registry.restart();
        });
        restarter.start();

        byte[] value =
                encoder.encode(record, Fixtures.meta("payments", null, null)).value();

        restarter.join();
        assertThat(value).startsWith(0, 0, 0, 0, 1);
        assertThat(meters.counter("etl.schema.registry.requests", "operation", "lookup", "outcome", "unavailable")
                        .count())
                .isPositive();
    }
}
