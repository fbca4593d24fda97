package io.etl.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.DescriptorValidationException;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.Timestamp;
import io.etl.core.error.RecordException;
import io.etl.kafka.common.SchemaRegistryConfig;
import io.etl.schema.internal.WireFormat;
import io.etl.testkit.schema.SchemaRegistryServer;
import io.etl.testkit.schema.SchemaRegistryServer.Reference;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The Protobuf encoder registers and looks up imported files as Confluent's serializer does: each under the
 * subject named by its import path, the imports of an import first, and the importing file with references to
 * them.
 */
class ProtobufImportsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CURRENCY = "common/currency.proto";
    private static final String MONEY = "common/money.proto";

    private final SchemaRegistryServer registry = SchemaRegistryServer.start();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final SchemaRegistryConfig config =
            SchemaRegistryConfig.custom().url(registry.url()).build();

    private final Descriptor currency = file(CURRENCY, "io.etl.common", "Currency", List.of(), field("code", 1))
            .findMessageTypeByName("Currency");
    private final Descriptor money = file(
                    MONEY,
                    "io.etl.common",
                    "Money",
                    List.of(currency.getFile()),
                    field("units", 1),
                    message("currency", 2, ".io.etl.common.Currency"))
            .findMessageTypeByName("Money");
    private final Descriptor order = file(
                    "orders/order.proto",
                    "io.etl.orders",
                    "Order",
                    List.of(money.getFile(), Timestamp.getDescriptor().getFile()),
                    field("id", 1),
                    message("total", 2, ".io.etl.common.Money"),
                    message("at", 3, ".google.protobuf.Timestamp"))
            .findMessageTypeByName("Order");

    @AfterEach
    void stop() {
        registry.close();
    }

    private static FieldDescriptorProto.Builder field(String name, int number) {
        return FieldDescriptorProto.newBuilder()
                .setName(name)
                .setNumber(number)
                .setType(FieldDescriptorProto.Type.TYPE_STRING);
    }

    private static FieldDescriptorProto.Builder message(String name, int number, String type) {
        return FieldDescriptorProto.newBuilder()
                .setName(name)
                .setNumber(number)
                .setType(FieldDescriptorProto.Type.TYPE_MESSAGE)
                .setTypeName(type);
    }

    /** A proto3 file {@code name} defining one message, importing {@code imports}. */
    private static FileDescriptor file(
            String name,
            String pkg,
            String type,
            List<FileDescriptor> imports,
            FieldDescriptorProto.Builder... fields) {
        DescriptorProto.Builder message = DescriptorProto.newBuilder().setName(type);
        for (FieldDescriptorProto.Builder f : fields) {
            message.addField(f);
        }
        FileDescriptorProto.Builder file = FileDescriptorProto.newBuilder()
                .setName(name)
                .setPackage(pkg)
                .setSyntax("proto3")
                .addMessageType(message);
        imports.forEach(i -> file.addDependency(i.getName()));
        try {
            return FileDescriptor.buildFrom(file.build(), imports.toArray(new FileDescriptor[0]));
        } catch (DescriptorValidationException e) {
            throw new IllegalStateException(e);
        }
    }

    private DynamicMessage order(String id) {
        DynamicMessage code = DynamicMessage.newBuilder(currency)
                .setField(currency.findFieldByName("code"), "EUR")
                .build();
        DynamicMessage total = DynamicMessage.newBuilder(money)
                .setField(money.findFieldByName("units"), "12")
                .setField(money.findFieldByName("currency"), code)
                .build();
        return DynamicMessage.newBuilder(order)
                .setField(order.findFieldByName("id"), id)
                .setField(order.findFieldByName("total"), total)
                .setField(
                        order.findFieldByName("at"),
                        Timestamp.newBuilder().setSeconds(1_800_000_000L).build())
                .build();
    }

    private SchemaEncoder<DynamicMessage> opened(SchemaRegistryConfig registryConfig) {
        SchemaEncoder<DynamicMessage> encoder = Protobuf.encoder();
        encoder.open(Fixtures.context(registryConfig, "orders", meters));
        return encoder;
    }

    private static byte[] encode(SchemaEncoder<DynamicMessage> encoder, DynamicMessage message) {
        return encoder.encode(message, Fixtures.meta("orders", null, null)).value();
    }

    /** Version {@code version} of {@code subject}, as the registry answers over HTTP. */
    private JsonNode version(String subject, String version) throws Exception {
        HttpResponse<String> answer = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(registry.url() + "/subjects/"
                                        + URLEncoder.encode(subject, StandardCharsets.UTF_8) + "/versions/"
                                        + version))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).as(subject).isEqualTo(200);
        return JSON.readTree(answer.body());
    }

    private static List<String> references(JsonNode version) {
        List<String> references = new ArrayList<>();
        version.path("references")
                .forEach(r -> references.add(r.path("name").asText() + "|"
                        + r.path("subject").asText() + "|" + r.path("version").asInt()));
        return references;
    }

    private static String subjectPath(String subject) {
        return "/subjects/" + URLEncoder.encode(subject, StandardCharsets.UTF_8);
    }

    @Test
    void shouldRegisterImportsUnderTheirPathsDependenciesFirstAndReferToThem() throws Exception {
        // an earlier, unrelated version: the reference must name the version that holds the printed file
        registry.register(MONEY, "PROTOBUF", "syntax = \"proto3\";\npackage io.etl.old;\n\nmessage Old {\n}\n");
        SchemaEncoder<DynamicMessage> encoder = opened(config.withAutoRegister(true));

        byte[] first = encode(encoder, order("o-1"));
        int requests = registry.requests("/subjects/");
        for (int i = 2; i <= 20; i++) {
            assertThat(WireFormat.schemaId(encode(encoder, order("o-" + i)))).isEqualTo(WireFormat.schemaId(first));
        }

        // once per file, not per record: a registration and a lookup for each import, one registration for the
        // message's file, nothing for the well-known type
        assertThat(requests).isEqualTo(5);
        assertThat(registry.requests("/subjects/")).isEqualTo(5);
        assertThat(registry.requests(subjectPath(CURRENCY))).isEqualTo(2);
        assertThat(registry.requests(subjectPath(MONEY))).isEqualTo(2);
        assertThat(registry.requests("/subjects/orders-value/versions")).isEqualTo(1);

        JsonNode currencyVersion = version(CURRENCY, "latest");
        JsonNode moneyVersion = version(MONEY, "latest");
        JsonNode orderVersion = version("orders-value", "latest");
        assertThat(currencyVersion.path("schema").asText()).isEqualTo(ProtobufPrinting.print(currency));
        assertThat(references(currencyVersion)).isEmpty();
        assertThat(moneyVersion.path("version").asInt()).isEqualTo(2);
        assertThat(moneyVersion.path("schema").asText()).isEqualTo(ProtobufPrinting.print(money));
        assertThat(references(moneyVersion)).containsExactly(CURRENCY + "|" + CURRENCY + "|1");
        assertThat(orderVersion.path("schema").asText()).isEqualTo(ProtobufPrinting.print(order));
        assertThat(references(orderVersion)).containsExactly(MONEY + "|" + MONEY + "|2");
        assertThat(orderVersion.path("id").asInt()).isEqualTo(WireFormat.schemaId(first));
        // depth first: the imported file of an import is registered before it
        assertThat(currencyVersion.path("id").asInt())
                .isLessThan(moneyVersion.path("id").asInt())
                .isLessThan(orderVersion.path("id").asInt());

        SchemaDecoder<DynamicMessage> decoder =
                Protobuf.decoder(DynamicMessage.getDefaultInstance(order).getParserForType());
        decoder.open(Fixtures.context(config, "orders", meters));
        DynamicMessage decoded = decoder.decode(first, Fixtures.meta("orders", null, first));
        assertThat(decoded.getField(order.findFieldByName("id"))).isEqualTo("o-1");
        assertThat(decoded.toByteArray()).isEqualTo(order("o-1").toByteArray());
    }

    @Test
    void shouldFindTheSchemaConfluentsSerializerRegisteredWithItsImportsAsReferences() {
        registry.register(CURRENCY, "PROTOBUF", ProtobufPrinting.print(currency));
        registry.register(
                MONEY, "PROTOBUF", ProtobufPrinting.print(money), List.of(new Reference(CURRENCY, CURRENCY, 1)));
        // the same file without references is another schema: the lookup must not find it
        int withoutReferences = registry.register("orders-value", "PROTOBUF", ProtobufPrinting.print(order));
        int id = registry.register(
                "orders-value", "PROTOBUF", ProtobufPrinting.print(order), List.of(new Reference(MONEY, MONEY, 1)));
        SchemaEncoder<DynamicMessage> encoder = opened(config);

        byte[] bytes = encode(encoder, order("o-1"));
        encode(encoder, order("o-2"));

        assertThat(id).isNotEqualTo(withoutReferences);
        assertThat(WireFormat.schemaId(bytes)).isEqualTo(id);
        assertThat(registry.requests(subjectPath(CURRENCY))).isEqualTo(1);
        assertThat(registry.requests(subjectPath(MONEY))).isEqualTo(1);
        assertThat(registry.requests("/subjects/orders-value")).isEqualTo(1);
    }

    @Test
    void shouldRefuseARecordWhoseImportIsNotRegisteredWhenAutoRegisterIsFalse() {
        registry.register(CURRENCY, "PROTOBUF", ProtobufPrinting.print(currency));
        SchemaEncoder<DynamicMessage> encoder = opened(config);

        assertThatThrownBy(() -> encode(encoder, order("o-1")))
                .isInstanceOf(RecordException.class)
                .hasMessageContaining("Protobuf schema io.etl.orders.Order needs '" + MONEY + "'")
                .hasMessageContaining("not registered under subject '" + MONEY + "' and auto_register is false");
        assertThat(registry.requests("/subjects/orders-value")).isZero();
    }

    @Test
    void shouldAskNothingMoreForAFileWithoutImports() throws Exception {
        SchemaEncoder<DynamicMessage> registering = opened(config.withAutoRegister(true));
        DynamicMessage code = DynamicMessage.newBuilder(currency)
                .setField(currency.findFieldByName("code"), "EUR")
                .build();

        int id = WireFormat.schemaId(encode(registering, code));
        int lookedUp = WireFormat.schemaId(encode(opened(config), code));

        assertThat(lookedUp).isEqualTo(id);
        assertThat(registry.requests("/subjects/")).isEqualTo(2);
        assertThat(registry.requests("/subjects/orders-value/versions")).isEqualTo(1);
        assertThat(references(version("orders-value", "1"))).isEmpty();
    }

    @Test
    void shouldNeitherRegisterNorReferToWellKnownTypes() throws Exception {
        Descriptor event = file(
                        "events/event.proto",
                        "io.etl.events",
                        "Event",
                        List.of(Timestamp.getDescriptor().getFile()),
                        message("at", 1, ".google.protobuf.Timestamp"))
                .findMessageTypeByName("Event");
        SchemaEncoder<DynamicMessage> encoder = opened(config.withAutoRegister(true));

        encode(
                encoder,
                DynamicMessage.newBuilder(event)
                        .setField(
                                event.findFieldByName("at"),
                                Timestamp.newBuilder().setSeconds(1).build())
                        .build());

        assertThat(registry.requests("/subjects/")).isEqualTo(1);
        JsonNode registered = version("orders-value", "1");
        assertThat(registered.path("schema").asText()).contains("import \"google/protobuf/timestamp.proto\";");
        assertThat(references(registered)).isEmpty();
    }
}
