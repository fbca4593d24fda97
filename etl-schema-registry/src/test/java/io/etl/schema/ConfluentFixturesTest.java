package io.etl.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DynamicMessage;
import io.etl.core.record.RecordMeta;
import io.etl.fixtures.Payment;
import io.etl.kafka.common.SchemaRegistryConfig;
import io.etl.kafka.sink.KafkaMessage;
import io.etl.testkit.schema.SchemaRegistryServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Payloads written by Confluent's own serializers (src/test/fixtures/confluent, made by write-fixtures.js with
 * npm's {@code @confluentinc/schemaregistry}) decode here, and the encoders write the same bytes for the same
 * schema id.
 */
class ConfluentFixturesTest {

    private static SchemaRegistryServer registry;
    private static SchemaRegistryConfig config;
    private static Descriptor shipment;
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    /** Registered in the fixtures' order, the schemas get the ids Confluent's serializers wrote. */
    @BeforeAll
    static void registerTheFixtureSchemasInIdOrder() throws Exception {
        registry = SchemaRegistryServer.start();
        config = SchemaRegistryConfig.custom().url(registry.url()).build();
        for (String name : new String[] {"avro-payment-v1", "avro-payment-v2", "json-order"}) {
            JsonNode meta = Fixtures.meta(name);
            int id = registry.register(
                    meta.get("subject").asText(),
                    meta.get("schemaType").asText(),
                    meta.get("schema").asText());
            assertThat(id).as(name).isEqualTo(meta.get("id").asInt());
        }
        FileDescriptorProto file = FileDescriptorProto.newBuilder()
                .setName("shipment.proto")
                .setPackage("io.etl.fixtures")
                .setSyntax("proto3")
                .addMessageType(DescriptorProto.newBuilder()
                        .setName("Address")
                        .addField(field("city", 1, FieldDescriptorProto.Type.TYPE_STRING)))
                .addMessageType(DescriptorProto.newBuilder()
                        .setName("Shipment")
                        .addField(field("id", 1, FieldDescriptorProto.Type.TYPE_STRING))
                        .addField(field("weight", 2, FieldDescriptorProto.Type.TYPE_INT32)))
                .build();
        shipment = FileDescriptor.buildFrom(file, new FileDescriptor[0]).findMessageTypeByName("Shipment");
        // the same file, as this module prints it: registered under the fixture's id, the framing must match
        String printed = ProtobufPrinting.print(shipment);
        int id = registry.register("shipments-value", "PROTOBUF", printed);
        assertThat(id).isEqualTo(Fixtures.meta("protobuf-shipment").get("id").asInt());
    }

    private static FieldDescriptorProto.Builder field(String name, int number, FieldDescriptorProto.Type type) {
        return FieldDescriptorProto.newBuilder()
                .setName(name)
                .setNumber(number)
                .setType(type)
                .setLabel(FieldDescriptorProto.Label.LABEL_OPTIONAL);
    }

    @AfterAll
    static void stop() {
        registry.close();
    }

    @Test
    void shouldDecodeConfluentAvroInTheWritersSchema() throws Exception {
        SchemaDecoder<GenericRecord> decoder = Avro.decoder();
        decoder.open(Fixtures.context(config, "payments", meters));

        GenericRecord v1 = decoder.decode(Fixtures.bytes("avro-payment-v1"), meta());

        assertThat(v1.get("id").toString()).isEqualTo("p-1");
        assertThat(v1.get("amount")).isEqualTo(1250L);
        assertThat(v1.get("currency").toString()).isEqualTo("EUR");
        assertThat(v1.getSchema().getField("note")).isNull();
    }

    @Test
    void shouldResolveVersionOneAndTwoThroughTheVersionTwoReader() throws Exception {
        Schema reader = new Schema.Parser()
                .parse(Fixtures.meta("avro-payment-v2").get("schema").asText());
        SchemaDecoder<GenericRecord> decoder = Avro.decoder(reader);
        decoder.open(Fixtures.context(config, "payments", meters));

        GenericRecord v1 = decoder.decode(Fixtures.bytes("avro-payment-v1"), meta());
        GenericRecord v2 = decoder.decode(Fixtures.bytes("avro-payment-v2"), meta());

        assertThat(v1.getSchema()).isEqualTo(reader);
        assertThat(v1.get("note")).isNull();
        assertThat(v2.get("note").toString()).isEqualTo("refund");
        assertThat(v2.get("amount")).isEqualTo(990L);
    }

    @Test
    void shouldDecodeIntoTheGeneratedSpecificRecord() throws Exception {
        SchemaDecoder<Payment> decoder = Avro.decoder(Payment.class);
        decoder.open(Fixtures.context(config, "payments", meters));

        Payment payment = decoder.decode(Fixtures.bytes("avro-payment-v1"), meta());

        assertThat(payment.getId()).isEqualTo("p-1");
        assertThat(payment.getAmount()).isEqualTo(1250L);
        assertThat(payment.getNote()).isNull();
    }

    @Test
    void shouldWriteTheSameAvroBytesForTheSameSchemaId() {
        JsonNode meta = Fixtures.meta("avro-payment-v1");
        Schema schema = new Schema.Parser().parse(meta.get("schema").asText());
        GenericRecord record = new GenericData.Record(schema);
        record.put("id", "p-1");
        record.put("amount", 1250L);
        record.put("currency", "EUR");
        SchemaEncoder<GenericRecord> encoder = Avro.encoder();
        encoder.open(Fixtures.context(config, "payments", meters));

        KafkaMessage message = encoder.encode(record, meta());

        assertThat(message.value()).isEqualTo(Fixtures.bytes("avro-payment-v1"));
    }

    @Test
    void shouldWriteTheSameBytesForAGeneratedRecord() {
        Payment payment = Payment.newBuilder()
                .setId("p-2")
                .setAmount(990L)
                .setCurrency("USD")
                .setNote("refund")
                .build();
        SchemaEncoder<Payment> encoder = Avro.encoder();
        encoder.open(Fixtures.context(config, "payments", meters));

        assertThat(encoder.encode(payment, meta()).value()).isEqualTo(Fixtures.bytes("avro-payment-v2"));
    }

    record Order(String id, int quantity) {}

    @Test
    void shouldDecodeAndWriteConfluentJsonSchemaPayloads() throws Exception {
        SchemaDecoder<Order> decoder = JsonSchema.decoder(Order.class);
        decoder.open(Fixtures.context(config, "orders", meters));
        assertThat(decoder.decode(Fixtures.bytes("json-order"), meta())).isEqualTo(new Order("o-7", 3));

        SchemaEncoder<Order> encoder =
                JsonSchema.encoder(Fixtures.meta("json-order").get("schema").asText());
        encoder.open(Fixtures.context(config, "orders", meters));
        assertThat(encoder.encode(new Order("o-7", 3), meta()).value()).isEqualTo(Fixtures.bytes("json-order"));
    }

    @Test
    void shouldValidateConfluentJsonAgainstTheSchemasItReferencesAsTheSerializerDid() throws Exception {
        JsonNode fixture = Fixtures.meta("json-invoice-with-reference");
        JsonNode reference = fixture.get("references").get(0);
        assertThat(fixture.get("refusedWithoutName").asBoolean())
                .as("Confluent's serializer refused an invoice whose customer breaks the referenced schema")
                .isTrue();
        try (SchemaRegistryServer own = SchemaRegistryServer.start()) {
            // a registry of its own: the fixture's ids count from 1, as in the serializer's registry
            own.register(
                    reference.get("subject").asText(),
                    "JSON",
                    fixture.get("referenced")
                            .get(reference.get("name").asText())
                            .asText());
            int id = own.register(
                    fixture.get("subject").asText(),
                    "JSON",
                    fixture.get("schema").asText(),
                    List.of(new SchemaRegistryServer.Reference(
                            reference.get("name").asText(),
                            reference.get("subject").asText(),
                            reference.get("version").asInt())));
            assertThat(id).isEqualTo(fixture.get("id").asInt());
            SchemaDecoder<JsonNode> decoder = JsonSchema.decoder(JsonNode.class);
            decoder.open(Fixtures.context(
                    SchemaRegistryConfig.custom().url(own.url()).build(), "invoices", meters));

            assertThat(decoder.decode(Fixtures.bytes("json-invoice-with-reference"), meta()))
                    .isEqualTo(fixture.get("value"));
            // the invoice the serializer refused, framed for the same id: refused here too
            byte[] framed = Fixtures.framedJson(id, "{\"id\":\"i-1\",\"customer\":{\"tier\":\"gold\"}}");
            assertThatThrownBy(() -> decoder.decode(framed, meta()))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("does not match its writer schema");
        }
    }

    @Test
    void shouldDecodeAndWriteConfluentProtobufWithItsMessageIndexes() throws Exception {
        SchemaDecoder<DynamicMessage> decoder =
                Protobuf.decoder(DynamicMessage.getDefaultInstance(shipment).getParserForType());
        decoder.open(Fixtures.context(config, "shipments", meters));

        DynamicMessage decoded = decoder.decode(Fixtures.bytes("protobuf-shipment"), meta());

        assertThat(decoded.getField(shipment.findFieldByName("id"))).isEqualTo("s-3");
        assertThat(decoded.getField(shipment.findFieldByName("weight"))).isEqualTo(42);
        SchemaEncoder<DynamicMessage> encoder = Protobuf.encoder();
        encoder.open(Fixtures.context(config, "shipments", meters));
        assertThat(encoder.encode(decoded, meta()).value()).isEqualTo(Fixtures.bytes("protobuf-shipment"));
    }

    private static RecordMeta meta() {
        return Fixtures.meta("t", null, null);
    }
}
