package io.etl.schema.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DynamicMessage;
import io.etl.core.Pipeline;
import io.etl.core.PipelineResult;
import io.etl.core.RunningPipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.core.error.DeadLetter;
import io.etl.core.metrics.EtlMetrics;
import io.etl.core.record.RecordMeta;
import io.etl.fixtures.Payment;
import io.etl.kafka.sink.KafkaSink;
import io.etl.kafka.source.KafkaSource;
import io.etl.schema.Avro;
import io.etl.schema.JsonSchema;
import io.etl.schema.Protobuf;
import io.etl.schema.SchemaEncoder;
import io.etl.schema.internal.ProtobufEncoder;
import io.etl.schema.internal.WireFormat;
import io.etl.schema.it.SchemaPipelines.Topics;
import io.etl.testkit.EmbeddedKafka;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.TestRecord;
import io.etl.testkit.schema.SchemaRegistryServer;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Avro, Protobuf and JSON Schema pipelines on a real broker with the registry over HTTP: round trips, schema
 * evolution, a writer schema referencing another subject, a registry outage while a new schema id arrives, and
 * records the registry cannot explain.
 */
@EmbeddedKafka(shared = true)
class SchemaRegistryPipelineIT {

    static final Schema V1 = new Schema.Parser()
            .parse("{\"type\":\"record\",\"name\":\"Payment\",\"namespace\":\"io.etl.fixtures\",\"fields\":["
                    + "{\"name\":\"id\",\"type\":\"string\"},{\"name\":\"amount\",\"type\":\"long\"},"
                    + "{\"name\":\"currency\",\"type\":\"string\"}]}");
    static final Schema V2 = new Schema.Parser()
            .parse("{\"type\":\"record\",\"name\":\"Payment\",\"namespace\":\"io.etl.fixtures\",\"fields\":["
                    + "{\"name\":\"id\",\"type\":\"string\"},{\"name\":\"amount\",\"type\":\"long\"},"
                    + "{\"name\":\"currency\",\"type\":\"string\"},"
                    + "{\"name\":\"note\",\"type\":[\"null\",\"string\"],\"default\":null}]}");
    static final Schema LEDGER = new Schema.Parser()
            .parse("{\"type\":\"record\",\"name\":\"Entry\",\"namespace\":\"io.etl.ledger\",\"fields\":["
                    + "{\"name\":\"payment\",\"type\":\"string\"},{\"name\":\"cents\",\"type\":\"long\"},"
                    + "{\"name\":\"note\",\"type\":\"string\"}]}");

    static final Schema CUSTOMER = new Schema.Parser()
            .parse("{\"type\":\"record\",\"name\":\"Customer\",\"namespace\":\"io.etl.fixtures\",\"fields\":["
                    + "{\"name\":\"name\",\"type\":\"string\"}]}");
    /** An order whose customer field names a type registered under a subject of its own. */
    static final String ORDER_OF_CUSTOMER =
            "{\"type\":\"record\",\"name\":\"Order\",\"namespace\":\"io.etl.fixtures\",\"fields\":["
                    + "{\"name\":\"id\",\"type\":\"string\"},{\"name\":\"cents\",\"type\":\"long\"},"
                    + "{\"name\":\"customer\",\"type\":\"io.etl.fixtures.Customer\"}]}";

    private final SchemaRegistryServer registry = SchemaRegistryServer.start();

    @AfterEach
    void stopRegistry() {
        registry.close();
    }

    private <T> SchemaEncoder<T> producerEncoder(SchemaEncoder<T> encoder, String topic) {
        return SchemaPipelines.producerOf(encoder, topic, registry.url(), false);
    }

    private static byte[] framed(SchemaEncoder<GenericRecord> encoder, GenericRecord value) {
        return encoder.encode(value, new RecordMeta("t", 0, 0L, 0L, null, List.of()))
                .value();
    }

    static GenericRecord payment(Schema schema, int i) {
        GenericRecord r = new GenericData.Record(schema);
        r.put("id", "p-" + i);
        r.put("amount", (long) i);
        r.put("currency", "EUR");
        if (schema.getField("note") != null) {
            r.put("note", "v2 #" + i);
        }
        return r;
    }

    static GenericRecord entry(GenericRecord payment) {
        GenericRecord e = new GenericData.Record(LEDGER);
        e.put("payment", payment.get("id").toString());
        e.put("cents", (Long) payment.get("amount") * 100);
        Object note = payment.getSchema().getField("note") == null ? null : payment.get("note");
        e.put("note", note == null ? "-" : note.toString());
        return e;
    }

    private List<TestRecord> produceAvro(KafkaTestCluster kafka, Topics t, Schema schema, int from, int to) {
        List<TestRecord> records = avroRecords(t, schema, from, to);
        kafka.produce(t.input(), records);
        return records;
    }

    private List<TestRecord> avroRecords(Topics t, Schema schema, int from, int to) {
        SchemaEncoder<GenericRecord> encoder = producerEncoder(Avro.encoder(), t.input());
        List<TestRecord> records = new ArrayList<>();
        for (int i = from; i < to; i++) {
            records.add(TestRecord.of(("k" + i).getBytes(), framed(encoder, payment(schema, i))));
        }
        return records;
    }

    static Pipeline avroToLedger(Topics t, PipelineConfig config, Schema reader) {
        return Pipeline.named(t.uid())
                .from(KafkaSource.from(config.source("in")).with(Avro.decoder(reader)))
                .map("to-ledger", SchemaRegistryPipelineIT::entry)
                .to(KafkaSink.from(config.sink("out")).with(Avro.<GenericRecord>encoder()));
    }

    private List<String> ledgerNotes(KafkaTestCluster kafka, Topics t) throws Exception {
        return SchemaPipelines.decodeAll(kafka, t.output(), Avro.decoder(), registry.url()).stream()
                .map(r -> r.get("payment") + ":" + r.get("cents") + ":" + r.get("note"))
                .toList();
    }

    @Test
    @Timeout(120)
    void avroInTransformAvroOutWithGenericRecords(KafkaTestCluster kafka) throws Exception {
        Topics t = Topics.create(kafka, "avro-generic", 2);
        registry.register(t.input() + "-value", "AVRO", V1.toString());
        List<TestRecord> input = produceAvro(kafka, t, V1, 0, 200);
        PipelineConfig config = t.config(kafka, registry.url(), "fail");
        SimpleMeterRegistry meters = new SimpleMeterRegistry();

        PipelineResult result = SchemaPipelines.runUntilCaughtUp(
                kafka, avroToLedger(t, config, V1).start(config, meters), t, Duration.ofSeconds(60));

        assertThat(result.status()).as("%s", result).isEqualTo(PipelineResult.Status.COMPLETED);
        List<String> notes = ledgerNotes(kafka, t);
        assertThat(notes).hasSize(input.size()).doesNotHaveDuplicates().contains("p-7:700:-", "p-199:19900:-");
        List<TestRecord> out = kafka.readAll(t.output());
        assertThat(out).allSatisfy(r -> assertThat(new String(r.key())).startsWith("k"));
        // one schema in, one out: one lookup by id, one registration, however many records
        assertThat(registry.requests("/schemas/ids/1")).isEqualTo(1);
        assertThat(registry.requests("/subjects/" + t.output() + "-value/versions"))
                .isEqualTo(1);
        assertThat(meters.find("etl.schema.cache.lookups").tag("result", "hit").counters().stream()
                        .mapToDouble(Counter::count)
                        .sum())
                .isGreaterThanOrEqualTo(2 * input.size() - 2);
    }

    @Test
    @Timeout(120)
    void avroWhoseWriterSchemaReferencesAnotherSubjectIsReadAndTransformed(KafkaTestCluster kafka) throws Exception {
        Topics t = Topics.create(kafka, "avro-references", 2);
        registry.register("io.etl.fixtures.Customer", "AVRO", CUSTOMER.toString());
        int id = registry.register(
                t.input() + "-value",
                "AVRO",
                ORDER_OF_CUSTOMER,
                List.of(new SchemaRegistryServer.Reference("io.etl.fixtures.Customer", "io.etl.fixtures.Customer", 1)));
        Schema.Parser parser = new Schema.Parser();
        parser.parse(CUSTOMER.toString());
        Schema order = parser.parse(ORDER_OF_CUSTOMER);
        List<TestRecord> input = new ArrayList<>();
        GenericDatumWriter<GenericRecord> writer = new GenericDatumWriter<>(order);
        for (int i = 0; i < 100; i++) {
            GenericRecord customer =
                    new GenericData.Record(order.getField("customer").schema());
            customer.put("name", "customer-" + (i % 7));
            GenericRecord o = new GenericData.Record(order);
            o.put("id", "o-" + i);
            o.put("cents", (long) i * 10);
            o.put("customer", customer);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.write(new byte[WireFormat.HEADER_SIZE]);
            BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
            writer.write(o, encoder);
            byte[] framed = out.toByteArray();
            WireFormat.writeHeader(framed, id);
            input.add(TestRecord.of(("k" + i).getBytes(), framed));
        }
        kafka.produce(t.input(), input);
        PipelineConfig config = t.config(kafka, registry.url(), "fail");
        Pipeline pipeline = Pipeline.named(t.uid())
                .from(KafkaSource.from(config.source("in")).with(Avro.decoder()))
                .map("to-ledger", o -> {
                    GenericRecord e = new GenericData.Record(LEDGER);
                    e.put("payment", o.get("id").toString());
                    e.put("cents", (Long) o.get("cents"));
                    e.put(
                            "note",
                            ((GenericRecord) o.get("customer")).get("name").toString());
                    return e;
                })
                .to(KafkaSink.from(config.sink("out")).with(Avro.<GenericRecord>encoder()));

        PipelineResult result = SchemaPipelines.runUntilCaughtUp(
                kafka, pipeline.start(config, new SimpleMeterRegistry()), t, Duration.ofSeconds(60));

        assertThat(result.status()).as("%s", result).isEqualTo(PipelineResult.Status.COMPLETED);
        assertThat(ledgerNotes(kafka, t))
                .hasSize(input.size())
                .doesNotHaveDuplicates()
                .contains("o-0:0:customer-0", "o-99:990:customer-1");
        // the writer schema once, the version it references once, however many records
        assertThat(registry.requests("/schemas/ids/" + id)).isEqualTo(1);
        assertThat(registry.requests("/subjects/io.etl.fixtures.Customer/versions/1"))
                .isEqualTo(1);
    }

    @Test
    @Timeout(120)
    void avroInTransformAvroOutWithGeneratedRecords(KafkaTestCluster kafka) throws Exception {
        Topics t = Topics.create(kafka, "avro-specific", 1);
        registry.register(t.input() + "-value", "AVRO", V1.toString());
        produceAvro(kafka, t, V1, 0, 50);
        PipelineConfig config = t.config(kafka, registry.url(), "fail");

        Pipeline pipeline = Pipeline.named(t.uid())
                .from(KafkaSource.from(config.source("in")).with(Avro.decoder(Payment.class)))
                .map(
                        "refund",
                        p -> Payment.newBuilder(p)
                                .setNote("refund of " + p.getId())
                                .build())
                .to(KafkaSink.from(config.sink("out")).with(Avro.<Payment>encoder()));
        PipelineResult result = SchemaPipelines.runUntilCaughtUp(
                kafka, pipeline.start(config, new SimpleMeterRegistry()), t, Duration.ofSeconds(60));

        assertThat(result.status()).as("%s", result).isEqualTo(PipelineResult.Status.COMPLETED);
        List<Payment> out = SchemaPipelines.decodeAll(kafka, t.output(), Avro.decoder(Payment.class), registry.url());
        assertThat(out).hasSize(50).allSatisfy(p -> assertThat(p.getNote()).isEqualTo("refund of " + p.getId()));
    }

    @Test
    @Timeout(120)
    void recordsOfVersionOneAndTwoAreReadThroughTheVersionTwoReader(KafkaTestCluster kafka) throws Exception {
        Topics t = Topics.create(kafka, "avro-evolution", 1);
        registry.register(t.input() + "-value", "AVRO", V1.toString());
        produceAvro(kafka, t, V1, 0, 20);
        registry.register(t.input() + "-value", "AVRO", V2.toString());
        produceAvro(kafka, t, V2, 20, 40);
        PipelineConfig config = t.config(kafka, registry.url(), "fail");

        PipelineResult result = SchemaPipelines.runUntilCaughtUp(
                kafka, avroToLedger(t, config, V2).start(config, new SimpleMeterRegistry()), t, Duration.ofSeconds(60));

        assertThat(result.status()).as("%s", result).isEqualTo(PipelineResult.Status.COMPLETED);
        assertThat(ledgerNotes(kafka, t)).hasSize(40).contains("p-3:300:-", "p-25:2500:v2 #25");
    }

    @Test
    @Timeout(150)
    void aRegistryDownForTwentySecondsWhenANewIdArrivesPausesWithoutSkippingAndResumes(KafkaTestCluster kafka)
            throws Exception {
        Topics t = Topics.create(kafka, "avro-outage", 2);
        registry.register(t.input() + "-value", "AVRO", V1.toString());
        registry.register(t.input() + "-value", "AVRO", V2.toString());
        produceAvro(kafka, t, V1, 0, 100);
        PipelineConfig config = t.config(kafka, registry.url(), "skip");
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        RunningPipeline running = avroToLedger(t, config, V2).start(config, meters);
        await().atMost(Duration.ofSeconds(60)).until(() -> kafka.committedTotal(t.group()) >= 100);

        List<TestRecord> v2 = avroRecords(t, V2, 100, 200); // a schema id this pipeline has not met
        registry.stop();
        kafka.produce(t.input(), v2);
        await().atMost(Duration.ofSeconds(30)).until(() -> running.waitingFor().isPresent());
        assertThat(running.waitingFor().get()).contains("did not answer");
        long stoppedAt = System.nanoTime();
        await().pollDelay(Duration.ofSeconds(20)).atMost(Duration.ofSeconds(25)).until(() -> true);
        assertThat(running.waitingFor()).isPresent();
        assertThat(kafka.committedTotal(t.group())).isLessThan(200);
        assertThat(running.state().isTerminal()).isFalse();
        registry.restart();

        PipelineResult result = SchemaPipelines.runUntilCaughtUp(kafka, running, t, Duration.ofSeconds(60));

        assertThat(Duration.ofNanos(System.nanoTime() - stoppedAt)).isGreaterThan(Duration.ofSeconds(20));
        assertThat(result.status()).as("%s", result).isEqualTo(PipelineResult.Status.COMPLETED);
        List<String> notes = ledgerNotes(kafka, t);
        for (int i = 0; i < 200; i++) {
            String prefix = "p-" + i + ":";
            assertThat(notes).as("output of p-%d", i).anyMatch(n -> n.startsWith(prefix));
        }
        assertThat(meters.find(EtlMetrics.RECORDS_DROPPED).counters())
                .allSatisfy(c -> assertThat(c.count()).isZero());
        assertThat(kafka.readAll(t.deadLetters())).isEmpty();
        assertThat(meters.find("etl.schema.registry.requests")
                        .tag("outcome", "unavailable")
                        .counters())
                .isNotEmpty();
    }

    @Test
    @Timeout(120)
    void wrongMagicByteAndUnknownIdAreDeadLetteredAsRead(KafkaTestCluster kafka) throws Exception {
        Topics t = Topics.create(kafka, "avro-dlq", 1);
        registry.register(t.input() + "-value", "AVRO", V1.toString());
        produceAvro(kafka, t, V1, 0, 10);
        byte[] json = "{\"id\":\"p-x\"}".getBytes();
        byte[] unknownId = {0, 0, 0, 3, (byte) 0xe7, 2, 0x41};
        kafka.produce(
                t.input(),
                List.of(TestRecord.of("bad-1".getBytes(), json), TestRecord.of("bad-2".getBytes(), unknownId)));
        produceAvro(kafka, t, V1, 10, 20);
        PipelineConfig config = t.config(kafka, registry.url(), "dead_letter");

        PipelineResult result = SchemaPipelines.runUntilCaughtUp(
                kafka, avroToLedger(t, config, V1).start(config, new SimpleMeterRegistry()), t, Duration.ofSeconds(60));

        assertThat(result.status()).as("%s", result).isEqualTo(PipelineResult.Status.COMPLETED);
        assertThat(ledgerNotes(kafka, t)).hasSize(20);
        List<TestRecord> letters = kafka.readAll(t.deadLetters());
        assertThat(letters).hasSize(2);
        assertThat(letters.get(0).value()).isEqualTo(json);
        assertThat(letters.get(0).headerAsString(DeadLetter.ERROR_HEADER)).contains("unknown magic byte 0x7b");
        assertThat(letters.get(0).headerAsString(DeadLetter.SOURCE_HEADER)).isEqualTo(t.input() + "-0@10");
        assertThat(letters.get(1).value()).isEqualTo(unknownId);
        assertThat(letters.get(1).headerAsString(DeadLetter.ERROR_HEADER))
                .contains("schema id 999 is not in the schema registry");
        assertThat(letters)
                .allSatisfy(l ->
                        assertThat(l.headerAsString(DeadLetter.STAGE_HEADER)).isEqualTo("decode"));
        assertThat(kafka.committedOffsets(t.group())).containsEntry(new TopicPartition(t.input(), 0), 22L);
    }

    record Order(String id, int quantity) {}

    static final String ORDER_SCHEMA = "{\"$schema\":\"http://json-schema.org/draft-07/schema#\",\"title\":\"Order\","
            + "\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"},"
            + "\"quantity\":{\"type\":\"integer\",\"minimum\":0}},\"required\":[\"id\",\"quantity\"]}";

    @Test
    @Timeout(120)
    void jsonSchemaRoundTrip(KafkaTestCluster kafka) throws Exception {
        Topics t = Topics.create(kafka, "json-schema", 1);
        registry.register(t.input() + "-value", "JSON", ORDER_SCHEMA);
        SchemaEncoder<Order> in = producerEncoder(JsonSchema.encoder(ORDER_SCHEMA), t.input());
        List<TestRecord> records = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            records.add(TestRecord.of(
                    null,
                    in.encode(new Order("o-" + i, i), new RecordMeta("t", 0, 0L, 0L, null, List.of()))
                            .value()));
        }
        kafka.produce(t.input(), records);
        PipelineConfig config = t.config(kafka, registry.url(), "fail");

        Pipeline pipeline = Pipeline.named(t.uid())
                .from(KafkaSource.from(config.source("in")).with(JsonSchema.decoder(Order.class)))
                .map("double", o -> new Order(o.id(), o.quantity() * 2))
                .to(KafkaSink.from(config.sink("out")).with(JsonSchema.<Order>encoder(ORDER_SCHEMA)));
        PipelineResult result = SchemaPipelines.runUntilCaughtUp(
                kafka, pipeline.start(config, new SimpleMeterRegistry()), t, Duration.ofSeconds(60));

        assertThat(result.status()).as("%s", result).isEqualTo(PipelineResult.Status.COMPLETED);
        List<Order> out = SchemaPipelines.decodeAll(kafka, t.output(), JsonSchema.decoder(Order.class), registry.url());
        assertThat(out).hasSize(30).contains(new Order("o-7", 14), new Order("o-29", 58));
    }

    @Test
    @Timeout(120)
    void protobufRoundTrip(KafkaTestCluster kafka) throws Exception {
        Topics t = Topics.create(kafka, "protobuf", 1);
        Descriptor shipment = shipmentDescriptor();
        SchemaEncoder<DynamicMessage> in = producerEncoder(Protobuf.encoder(), t.input());
        registry.register(t.input() + "-value", "PROTOBUF", ProtobufEncoder.schemaText(shipment));
        List<TestRecord> records = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            DynamicMessage m = DynamicMessage.newBuilder(shipment)
                    .setField(shipment.findFieldByName("id"), "s-" + i)
                    .setField(shipment.findFieldByName("weight"), i)
                    .build();
            records.add(TestRecord.of(
                    null,
                    in.encode(m, new RecordMeta("t", 0, 0L, 0L, null, List.of()))
                            .value()));
        }
        kafka.produce(t.input(), records);
        PipelineConfig config = t.config(kafka, registry.url(), "fail");

        Pipeline pipeline = Pipeline.named(t.uid())
                .from(KafkaSource.from(config.source("in"))
                        .with(Protobuf.decoder(
                                DynamicMessage.getDefaultInstance(shipment).getParserForType())))
                .map(
                        "heavier",
                        m -> m.toBuilder()
                                .setField(
                                        shipment.findFieldByName("weight"),
                                        (Integer) m.getField(shipment.findFieldByName("weight")) + 1000)
                                .build())
                .to(KafkaSink.from(config.sink("out")).with(Protobuf.<DynamicMessage>encoder()));
        PipelineResult result = SchemaPipelines.runUntilCaughtUp(
                kafka, pipeline.start(config, new SimpleMeterRegistry()), t, Duration.ofSeconds(60));

        assertThat(result.status()).as("%s", result).isEqualTo(PipelineResult.Status.COMPLETED);
        List<DynamicMessage> out = SchemaPipelines.decodeAll(
                kafka,
                t.output(),
                Protobuf.decoder(DynamicMessage.getDefaultInstance(shipment).getParserForType()),
                registry.url());
        assertThat(out)
                .hasSize(30)
                .allSatisfy(m -> assertThat((Integer) m.getField(shipment.findFieldByName("weight")))
                        .isGreaterThanOrEqualTo(1000));
        // the second message of its file: message indexes [1]
        assertThat(kafka.readAll(t.output()).get(0).value()).startsWith(0, 0, 0, 0, 1, 2, 2);
    }

    static Descriptor shipmentDescriptor() throws Exception {
        FileDescriptorProto file = FileDescriptorProto.newBuilder()
                .setName("shipment.proto")
                .setPackage("io.etl.it")
                .setSyntax("proto3")
                .addMessageType(DescriptorProto.newBuilder()
                        .setName("Address")
                        .addField(field("city", 1, FieldDescriptorProto.Type.TYPE_STRING)))
                .addMessageType(DescriptorProto.newBuilder()
                        .setName("Shipment")
                        .addField(field("id", 1, FieldDescriptorProto.Type.TYPE_STRING))
                        .addField(field("weight", 2, FieldDescriptorProto.Type.TYPE_INT32)))
                .build();
        return FileDescriptor.buildFrom(file, new FileDescriptor[0]).findMessageTypeByName("Shipment");
    }

    private static FieldDescriptorProto.Builder field(String name, int number, FieldDescriptorProto.Type type) {
        return FieldDescriptorProto.newBuilder()
                .setName(name)
                .setNumber(number)
                .setType(type)
                .setLabel(FieldDescriptorProto.Label.LABEL_OPTIONAL);
    }
}
