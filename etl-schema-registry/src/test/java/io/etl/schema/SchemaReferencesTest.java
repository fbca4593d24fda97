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
import com.google.protobuf.Timestamp;
import io.etl.core.error.RecordException;
import io.etl.core.error.RetryableException;
import io.etl.kafka.common.SchemaRegistryConfig;
import io.etl.schema.internal.WireFormat;
import io.etl.testkit.schema.SchemaRegistryServer;
import io.etl.testkit.schema.SchemaRegistryServer.Reference;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Schemas with references, as Confluent's serializers register them (each named type or imported file under its
 * own subject), read through a real registry.
 */
class SchemaReferencesTest {

    private static final String ADDRESS = record("Address", "{'name': 'city', 'type': 'string'}");
    private static final String CUSTOMER = record("Customer", "{'name': 'name', 'type': 'string'}");
    private static final String CUSTOMER_WITH_ADDRESS = record(
            "Customer", "{'name': 'name', 'type': 'string'}", "{'name': 'address', 'type': 'io.etl.fixtures.Address'}");
    private static final String ORDER = record(
            "Order", "{'name': 'id', 'type': 'string'}", "{'name': 'customer', 'type': 'io.etl.fixtures.Customer'}");
    private static final String ORDER_V2 = record(
            "Order",
            "{'name': 'id', 'type': 'string'}",
            "{'name': 'customer', 'type': 'io.etl.fixtures.Customer'}",
            "{'name': 'note', 'type': 'string', 'default': ''}");
    private static final Reference TO_CUSTOMER = new Reference("io.etl.fixtures.Customer", "customer", 1);

    private final SchemaRegistryServer registry = SchemaRegistryServer.start();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final SchemaRegistryConfig config =
            SchemaRegistryConfig.custom().url(registry.url()).build();

    @AfterEach
    void stop() {
        registry.close();
    }

    /** An Avro record of namespace {@code io.etl.fixtures} with {@code fields} (JSON written with single quotes). */
    private static String record(String name, String... fields) {
        return "{\"type\": \"record\", \"name\": \"" + name + "\", \"namespace\": \"io.etl.fixtures\", \"fields\": ["
                + String.join(", ", fields).replace('\'', '"') + "]}";
    }

    /** The schema {@code texts} define last, the earlier ones parsed first as a registry client does. */
    private static Schema parse(String... texts) {
        Schema.Parser parser = new Schema.Parser();
        Schema last = null;
        for (String text : texts) {
            last = parser.parse(text);
        }
        return last;
    }

    private static GenericRecord order(Schema schema, String id, String customer) {
        GenericRecord record = new GenericData.Record(schema);
        record.put("id", id);
        GenericRecord buyer = new GenericData.Record(schema.getField("customer").schema());
        buyer.put("name", customer);
        if (buyer.getSchema().getField("address") != null) {
            GenericRecord address =
                    new GenericData.Record(buyer.getSchema().getField("address").schema());
            address.put("city", "Lyon");
            buyer.put("address", address);
        }
        record.put("customer", buyer);
        return record;
    }

    /** What Confluent's serializer writes: magic byte, schema id, then the record as plain Avro writes it. */
    private static byte[] framed(int id, GenericRecord record) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] header = new byte[WireFormat.HEADER_SIZE];
            WireFormat.writeHeader(header, id);
            out.write(header);
            BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
            new GenericDatumWriter<GenericRecord>(record.getSchema()).write(record, encoder);
            encoder.flush();
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private <T> T decode(SchemaDecoder<T> decoder, byte[] bytes) throws Exception {
        return decoder.decode(bytes, Fixtures.meta("orders", null, bytes));
    }

    private <T> SchemaDecoder<T> opened(SchemaDecoder<T> decoder) {
        decoder.open(Fixtures.context(config, "orders", meters));
        return decoder;
    }

    @Test
    void shouldDecodeAvroWhoseSchemaReferencesAnotherSubject() throws Exception {
        registry.register("customer", "AVRO", CUSTOMER);
        int id = registry.register("orders-value", "AVRO", ORDER, List.of(TO_CUSTOMER));
        byte[] bytes = framed(id, order(parse(CUSTOMER, ORDER), "o-1", "Ada"));

        GenericRecord decoded = decode(opened(Avro.decoder()), bytes);

        GenericRecord customer = (GenericRecord) decoded.get("customer");
        assertThat(decoded.get("id")).hasToString("o-1");
        assertThat(customer.getSchema().getFullName()).isEqualTo("io.etl.fixtures.Customer");
        assertThat(customer.get("name")).hasToString("Ada");
    }

    @Test
    void shouldResolveAWriterWithReferencesToAReaderSchema() throws Exception {
        registry.register("customer", "AVRO", CUSTOMER);
        int id = registry.register("orders-value", "AVRO", ORDER, List.of(TO_CUSTOMER));
        byte[] bytes = framed(id, order(parse(CUSTOMER, ORDER), "o-2", "Grace"));
        Schema reader = parse(CUSTOMER, ORDER_V2);

        GenericRecord decoded = decode(opened(Avro.decoder(reader)), bytes);

        assertThat(decoded.getSchema()).isEqualTo(reader);
        assertThat(decoded.get("note")).hasToString("");
        assertThat(((GenericRecord) decoded.get("customer")).get("name")).hasToString("Grace");
    }

    @Test
    void shouldDecodeAChainOfReferences() throws Exception {
        registry.register("address", "AVRO", ADDRESS);
        registry.register(
                "customer",
                "AVRO",
                CUSTOMER_WITH_ADDRESS,
                List.of(new Reference("io.etl.fixtures.Address", "address", 1)));
        int id = registry.register("orders-value", "AVRO", ORDER, List.of(TO_CUSTOMER));
        byte[] bytes = framed(id, order(parse(ADDRESS, CUSTOMER_WITH_ADDRESS, ORDER), "o-3", "Alan"));

        GenericRecord decoded = decode(opened(Avro.decoder()), bytes);

        GenericRecord customer = (GenericRecord) decoded.get("customer");
        assertThat(((GenericRecord) customer.get("address")).get("city")).hasToString("Lyon");
    }

    @Test
    void shouldAskForEachReferencedVersionOnce() throws Exception {
        registry.register("customer", "AVRO", CUSTOMER);
        int v1 = registry.register("orders-value", "AVRO", ORDER, List.of(TO_CUSTOMER));
        int v2 = registry.register("orders-value", "AVRO", ORDER_V2, List.of(TO_CUSTOMER));
        Schema writer1 = parse(CUSTOMER, ORDER);
        GenericRecord second = order(parse(CUSTOMER, ORDER_V2), "o-5", "Edsger");
        second.put("note", "gift");
        SchemaDecoder<GenericRecord> decoder = opened(Avro.decoder());

        for (int i = 0; i < 20; i++) {
            assertThat(decode(decoder, framed(v1, order(writer1, "o-" + i, "Ada")))
                            .get("id"))
                    .hasToString("o-" + i);
            assertThat(decode(decoder, framed(v2, second)).get("note")).hasToString("gift");
        }

        assertThat(registry.requests("/schemas/ids/")).isEqualTo(2);
        assertThat(registry.requests("/subjects/")).isEqualTo(1);
    }

    @Test
    void shouldAskForARetryWhileTheRegistryIsDownAndDecodeOnceItIsBack() throws Exception {
        registry.register("customer", "AVRO", CUSTOMER);
        int id = registry.register("orders-value", "AVRO", ORDER, List.of(TO_CUSTOMER));
        byte[] bytes = framed(id, order(parse(CUSTOMER, ORDER), "o-6", "Barbara"));
        SchemaDecoder<GenericRecord> decoder = opened(Avro.decoder());
        registry.stop();

        assertThatThrownBy(() -> decode(decoder, bytes))
                .isInstanceOf(RetryableException.class)
                .hasMessageContaining("did not answer");

        registry.restart();
        assertThat(((GenericRecord) decode(decoder, bytes).get("customer")).get("name"))
                .hasToString("Barbara");
    }

    @Test
    void shouldWriteWithTheLatestVersionWhenItHasReferences() {
        registry.register("customer", "AVRO", CUSTOMER);
        int id = registry.register("orders-value", "AVRO", ORDER, List.of(TO_CUSTOMER));
        SchemaEncoder<GenericRecord> encoder = Avro.encoder();
        encoder.open(Fixtures.context(config.withUseLatestVersion(true), "orders", meters));
        GenericRecord same = order(parse(CUSTOMER, ORDER), "o-7", "Ada");
        GenericRecord other = order(parse(CUSTOMER, ORDER_V2), "o-8", "Ada");
        other.put("note", "");

        byte[] written =
                encoder.encode(same, Fixtures.meta("orders", null, null)).value();

        assertThat(WireFormat.schemaId(written)).isEqualTo(id);
        assertThatThrownBy(() -> encoder.encode(other, Fixtures.meta("orders", null, null)))
                .isInstanceOf(RecordException.class)
                .hasMessageContaining("is not version 1 (the latest) of subject 'orders-value'");
    }

    @Test
    void shouldDecodeProtobufWhoseImportIsRegisteredAsAReference() throws Exception {
        FileDescriptor timestamp = Timestamp.getDescriptor().getFile();
        FileDescriptorProto file = FileDescriptorProto.newBuilder()
                .setName("delivery.proto")
                .setPackage("io.etl.fixtures")
                .setSyntax("proto3")
                .addDependency(timestamp.getName())
                .addMessageType(DescriptorProto.newBuilder()
                        .setName("Delivery")
                        .addField(FieldDescriptorProto.newBuilder()
                                .setName("id")
                                .setNumber(1)
                                .setType(FieldDescriptorProto.Type.TYPE_STRING))
                        .addField(FieldDescriptorProto.newBuilder()
                                .setName("at")
                                .setNumber(2)
                                .setType(FieldDescriptorProto.Type.TYPE_MESSAGE)
                                .setTypeName(".google.protobuf.Timestamp")))
                .build();
        Descriptor delivery =
                FileDescriptor.buildFrom(file, new FileDescriptor[] {timestamp}).findMessageTypeByName("Delivery");
        registry.register(timestamp.getName(), "PROTOBUF", ProtobufPrinting.print(Timestamp.getDescriptor()));
        int id = registry.register(
                "deliveries-value",
                "PROTOBUF",
                ProtobufPrinting.print(delivery),
                List.of(new Reference(timestamp.getName(), timestamp.getName(), 1)));
        Timestamp at = Timestamp.newBuilder().setSeconds(1_800_000_000L).build();
        DynamicMessage message = DynamicMessage.newBuilder(delivery)
                .setField(delivery.findFieldByName("id"), "d-1")
                .setField(delivery.findFieldByName("at"), at)
                .build();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] header = new byte[WireFormat.HEADER_SIZE];
        WireFormat.writeHeader(header, id);
        out.write(header);
        out.write(WireFormat.messageIndexes(new int[] {0}));
        message.writeTo(out);

        DynamicMessage decoded = decode(
                opened(Protobuf.decoder(
                        DynamicMessage.getDefaultInstance(delivery).getParserForType())),
                out.toByteArray());

        assertThat(decoded.getField(delivery.findFieldByName("id"))).isEqualTo("d-1");
        assertThat(Timestamp.parseFrom(
                                ((DynamicMessage) decoded.getField(delivery.findFieldByName("at"))).toByteArray())
                        .getSeconds())
                .isEqualTo(1_800_000_000L);
    }

    private static final String ADDRESS_JSON =
            "{\"type\": \"object\", \"properties\": {\"city\": {\"type\": \"string\"}}, \"required\": [\"city\"]}";
    private static final String CUSTOMER_JSON = "{\"type\": \"object\", \"properties\": {\"name\": {\"type\":"
            + " \"string\"}, \"address\": {\"$ref\": \"address.json\"}}, \"required\": [\"name\"]}";
    private static final String ORDER_JSON = "{\"type\": \"object\", \"properties\": {\"id\": {\"type\": \"string\"},"
            + " \"customer\": {\"$ref\": \"customer.json\"}}}";

    /** An order schema referencing a customer schema, which references an address schema: two levels. */
    private int registerJsonChain(String orderSchema) {
        registry.register("address-json", "JSON", ADDRESS_JSON);
        registry.register(
                "customer-json", "JSON", CUSTOMER_JSON, List.of(new Reference("address.json", "address-json", 1)));
        return registry.register(
                "orders-value", "JSON", orderSchema, List.of(new Reference("customer.json", "customer-json", 1)));
    }

    @Test
    void shouldValidateJsonAgainstASchemaThatReferencesOtherSubjects() throws Exception {
        int id = registerJsonChain(ORDER_JSON);
        SchemaDecoder<JsonNode> decoder = opened(JsonSchema.decoder(JsonNode.class));

        JsonNode decoded = decode(
                decoder,
                Fixtures.framedJson(
                        id, "{\"id\": \"o-1\", \"customer\": {\"name\": \"Ada\", \"address\": {\"city\": \"Oslo\"}}}"));
        assertThat(decoded.at("/customer/address/city").asText()).isEqualTo("Oslo");

        // the referenced schemas take part: a customer without a name, an address without a city, are refused
        assertThatThrownBy(() -> decode(decoder, Fixtures.framedJson(id, "{\"id\": \"o-2\", \"customer\": {}}")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("does not match its writer schema (id " + id + ")")
                .hasMessageContaining("name");
        assertThatThrownBy(() -> decode(
                        decoder,
                        Fixtures.framedJson(
                                id, "{\"id\": \"o-3\", \"customer\": {\"name\": \"Bo\", \"address\": {}}}")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("city");
    }

    @Test
    void shouldResolveJsonReferencesAgainstTheSchemaId() throws Exception {
        int id = registerJsonChain(
                "{\"$id\": \"https://acme.example/schemas/order.json\", \"type\": \"object\", \"properties\":"
                        + " {\"customer\": {\"$ref\": \"customer.json\"}}}");
        SchemaDecoder<JsonNode> decoder = opened(JsonSchema.decoder(JsonNode.class));

        assertThat(decode(decoder, Fixtures.framedJson(id, "{\"customer\": {\"name\": \"Ada\"}}"))
                        .at("/customer/name")
                        .asText())
                .isEqualTo("Ada");
        assertThatThrownBy(() -> decode(decoder, Fixtures.framedJson(id, "{\"customer\": {\"name\": 7}}")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("does not match its writer schema");
    }

    @Test
    void shouldCallAJsonRefThatNoReferenceNamesARecordError() {
        registry.register("customer-json", "JSON", "{\"type\": \"object\"}");
        int id = registry.register(
                "orders-value",
                "JSON",
                "{\"type\": \"object\", \"properties\": {\"customer\": {\"$ref\": \"client.json\"}}}",
                List.of(new Reference("customer.json", "customer-json", 1)));
        SchemaDecoder<JsonNode> decoder = opened(JsonSchema.decoder(JsonNode.class));

        assertThatThrownBy(() -> decode(decoder, Fixtures.framedJson(id, "{}")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("schema id " + id + " is not a usable JSON Schema");
    }
}
