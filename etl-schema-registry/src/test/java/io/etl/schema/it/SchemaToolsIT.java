package io.etl.schema.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.core.record.RecordMeta;
import io.etl.runtime.Main;
import io.etl.schema.Avro;
import io.etl.schema.SchemaEncoder;
import io.etl.schema.it.SchemaPipelines.Topics;
import io.etl.testkit.EmbeddedKafka;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.TestRecord;
import io.etl.testkit.schema.SchemaRegistryServer;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runtime's {@code produce} and {@code consume} with {@code --format avro} and {@code --format json-schema},
 * on a real broker with the registry over HTTP: what they write decodes as a pipeline reads it, what a pipeline
 * wrote prints as JSON, and a wrong setting or a value the registry cannot explain is named.
 */
@EmbeddedKafka(shared = true)
class SchemaToolsIT {

    private static final String PERSON_SCHEMA =
            "{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\"},\"age\":{\"type\":\"integer\"}},"
                    + "\"required\":[\"name\"]}";

    private final SchemaRegistryServer registry = SchemaRegistryServer.start();

    @TempDir
    Path dir;

    @AfterEach
    void stopRegistry() {
        registry.close();
    }

    record Result(int exit, String out, String err) {}

    private static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Main.execute(new PrintWriter(out), new PrintWriter(err), args);
        return new Result(exit, out.toString(), err.toString());
    }

    /** {@code command topic --brokers ... --format-option registry=<this test's registry> options...}. */
    private Result withRegistry(KafkaTestCluster kafka, String command, String topic, String... options) {
        List<String> args = new ArrayList<>(List.of(
                command,
                topic,
                "--brokers",
                kafka.bootstrapServers(),
                "--format-option",
                "registry=" + registry.url()));
        args.addAll(List.of(options));
        return run(args.toArray(String[]::new));
    }

    private Path file(String name, String text) throws Exception {
        return Files.writeString(dir.resolve(name), text, StandardCharsets.UTF_8);
    }

    private static List<String> lines(String out) {
        return out.lines().filter(l -> !l.isBlank()).toList();
    }

    @Test
    @Timeout(120)
    void producedAvroDecodesInAPipelineAndConsumePrintsItBack(KafkaTestCluster kafka) throws Exception {
        Topics t = Topics.create(kafka, "tools-avro", 1);
        registry.register(t.input() + "-value", "AVRO", SchemaRegistryPipelineIT.V2.toString());
        List<String> json = List.of(
                "{\"id\":\"p-1\",\"amount\":100,\"currency\":\"EUR\",\"note\":null}",
                "{\"id\":\"p-2\",\"amount\":250,\"currency\":\"USD\",\"note\":{\"string\":\"gift\"}}");
        Path input = file("payments.jsonl", String.join("\n", json) + "\n");

        Result produced = withRegistry(kafka, "produce", t.input(), "--format", "avro", "--file", input.toString());

        assertThat(produced.exit()).as(produced.err()).isZero();
        assertThat(produced.out()).contains("produced 2 record(s)");
        List<GenericRecord> read = SchemaPipelines.decodeAll(kafka, t.input(), Avro.decoder(), registry.url());
        assertThat(read)
                .extracting(r -> r.get("id") + ":" + r.get("amount") + ":" + r.get("currency") + ":" + r.get("note"))
                .containsExactly("p-1:100:EUR:null", "p-2:250:USD:gift");

        Result consumed = withRegistry(kafka, "consume", t.input(), "--format", "avro", "--value-only");

        assertThat(consumed.exit()).as(consumed.err()).isZero();
        assertThat(lines(consumed.out())).containsExactlyElementsOf(json);
        // the latest version was asked for once, the id once: not per record
        assertThat(registry.requests("/subjects/" + t.input() + "-value/versions/latest"))
                .isEqualTo(1);
    }

    @Test
    @Timeout(120)
    void avroKeysOfAPrimitiveSchemaAreWrittenAndPrintedWithTheKeySubject(KafkaTestCluster kafka) throws Exception {
        Topics t = Topics.create(kafka, "tools-avro-keys", 1);
        int keyId = registry.register(t.input() + "-key", "AVRO", "\"string\"");
        registry.register(t.input() + "-value", "AVRO", SchemaRegistryPipelineIT.V1.toString());
        Path input = file(
                "keyed.jsonl",
                "\"k-1\"|{\"id\":\"p-1\",\"amount\":1,\"currency\":\"EUR\"}\n"
                        + "\"k-2\"|{\"id\":\"p-2\",\"amount\":2,\"currency\":\"USD\"}\n");

        Result produced = withRegistry(
                kafka,
                "produce",
                t.input(),
                "-K",
                "|",
                "--key-format",
                "avro",
                "--format",
                "avro",
                "--file",
                input.toString());

        assertThat(produced.exit()).as(produced.err()).isZero();
        List<TestRecord> written = kafka.readAll(t.input());
        assertThat(written).hasSize(2).allSatisfy(r -> {
            assertThat(r.key()[0]).as("magic byte").isZero();
            assertThat(ByteBuffer.wrap(r.key(), 1, 4).getInt())
                    .as("key schema id")
                    .isEqualTo(keyId);
        });

        Result consumed = withRegistry(kafka, "consume", t.input(), "--key-format", "avro", "--format", "avro");

        assertThat(consumed.exit()).as(consumed.err()).isZero();
        assertThat(lines(consumed.out()))
                .hasSize(2)
                .anySatisfy(l -> assertThat(l).contains("key=\"k-1\"", "\"id\":\"p-1\""))
                .anySatisfy(l -> assertThat(l).contains("key=\"k-2\"", "\"currency\":\"USD\""));
    }

    @Test
    @Timeout(120)
    void consumeTakesTheRegistryFromTheConfigAndNamesWhatItCannotDecode(KafkaTestCluster kafka) throws Exception {
        Topics t = Topics.create(kafka, "tools-avro-config", 1);
        SchemaEncoder<GenericRecord> encoder =
                SchemaPipelines.producerOf(Avro.encoder(), t.input(), registry.url(), true);
        GenericRecord payment = new GenericData.Record(SchemaRegistryPipelineIT.V1);
        payment.put("id", "p-7");
        payment.put("amount", 7L);
        payment.put("currency", "EUR");
        byte[] framed = encoder.encode(payment, RecordMeta.of(t.input(), 0, 0)).value();
        byte[] unknownId = framed.clone();
        unknownId[4] = 99; // schema id 99, which the registry does not have
        List<TestRecord> records = new ArrayList<>();
        records.add(TestRecord.of("k1".getBytes(StandardCharsets.UTF_8), framed));
        records.add(TestRecord.of("k2".getBytes(StandardCharsets.UTF_8), unknownId));
        records.add(
                TestRecord.of("k3".getBytes(StandardCharsets.UTF_8), "plain text".getBytes(StandardCharsets.UTF_8)));
        kafka.produce(t.input(), records);
        Path yaml =
                file("pipeline.yaml", """
                pipeline:
                  name: tools
                source:
                  in:
                    kafka:
                      brokers: "%s"
                      topics: [%s]
                      group_id: tools
                      schema_registry:
                        url: %s
                sinks:
                  out:
                    kafka:
                      brokers: "%1$s"
                      topic: %s
                """.formatted(kafka.bootstrapServers(), t.input(), registry.url(), t.output()));

        Result consumed = run("consume", t.input(), "--config", yaml.toString(), "--format", "avro");

        assertThat(consumed.exit()).as(consumed.err()).isZero();
        List<String> out = lines(consumed.out());
        assertThat(out).hasSize(3);
        assertThat(out.get(0)).contains("key=k1").endsWith("{\"id\":\"p-7\",\"amount\":7,\"currency\":\"EUR\"}");
        assertThat(out.get(1)).contains("key=k2", "(not avro:", "99");
        assertThat(out.get(2)).contains("key=k3", "plain text", "(not avro:", "magic byte");
    }

    @Test
    @Timeout(120)
    void produceRegistersAFileSchemaOnlyWhenAllowedAndStopsAtALineThatDoesNotFit(KafkaTestCluster kafka)
            throws Exception {
        Topics t = Topics.create(kafka, "tools-avro-file", 1);
        Path schema = file("payment.avsc", SchemaRegistryPipelineIT.V1.toString());
        Path input = file("in.jsonl", "{\"id\":\"p-1\",\"amount\":1,\"currency\":\"EUR\"}\n{\"id\":\"p-2\"}\n");
        String[] options = {"--format", "avro", "--format-option", "schema=" + schema, "--file", input.toString()};

        Result refused = withRegistry(kafka, "produce", t.input(), options);

        assertThat(refused.exit()).isEqualTo(1);
        assertThat(refused.err()).contains(t.input() + "-value", "--format-option auto_register=true");
        assertThat(kafka.readAll(t.input())).isEmpty();

        List<String> allowed = new ArrayList<>(List.of(options));
        allowed.addAll(List.of("--format-option", "auto_register=true"));
        Result partly = withRegistry(kafka, "produce", t.input(), allowed.toArray(String[]::new));

        assertThat(partly.exit()).isEqualTo(1);
        assertThat(partly.err()).contains("line 2", "not avro");
        assertThat(SchemaPipelines.decodeAll(kafka, t.input(), Avro.decoder(), registry.url()))
                .extracting(r -> r.get("id").toString())
                .containsExactly("p-1");
    }

    @Test
    @Timeout(120)
    void jsonSchemaValuesAreCheckedWhenProducedAndPrintedWhenConsumed(KafkaTestCluster kafka) throws Exception {
        Topics t = Topics.create(kafka, "tools-json-schema", 1);
        registry.register(t.input() + "-value", "JSON", PERSON_SCHEMA);
        Path input = file("people.jsonl", "{\"name\":\"Ada\",\"age\":36}\n{\"age\":\"old\"}\n");

        Result produced =
                withRegistry(kafka, "produce", t.input(), "--format", "json-schema", "--file", input.toString());

        assertThat(produced.exit()).isEqualTo(1);
        assertThat(produced.err()).contains("line 2", "not json-schema");
        List<TestRecord> written = kafka.readAll(t.input());
        assertThat(written).hasSize(1);
        assertThat(written.get(0).value()[0]).as("magic byte").isZero();

        Result consumed = withRegistry(kafka, "consume", t.input(), "--format", "json-schema", "--value-only");

        assertThat(consumed.exit()).as(consumed.err()).isZero();
        assertThat(lines(consumed.out())).containsExactly("{\"name\":\"Ada\",\"age\":36}");
    }

    @Test
    @Timeout(120)
    void aRegistryFormatWithoutARegistryOrWithAnUnknownOptionIsAUsageErrorAndAnUnreachableOneStopsConsume(
            KafkaTestCluster kafka) throws Exception {
        Topics t = Topics.create(kafka, "tools-avro-usage", 1);
        kafka.produce(t.input(), List.of(TestRecord.of((byte[]) null, new byte[] {0, 0, 0, 0, 1, 2})));

        Result noRegistry = run("consume", t.input(), "--brokers", kafka.bootstrapServers(), "--format", "avro");
        Result unknown = withRegistry(kafka, "consume", t.input(), "--format", "avro", "--format-option", "subjekt=x");

        Result unreachable = run(
                "consume",
                t.input(),
                "--brokers",
                kafka.bootstrapServers(),
                "--format",
                "avro",
                "--format-option",
                "registry=http://127.0.0.1:" + closedPort());

        Result keyFormatWithoutKeys = withRegistry(kafka, "produce", t.input(), "--key-format", "avro");

        assertThat(keyFormatWithoutKeys.exit()).isEqualTo(2);
        assertThat(keyFormatWithoutKeys.err()).contains("--key-format needs --key-separator");
        assertThat(noRegistry.exit()).isEqualTo(2);
        assertThat(noRegistry.err()).contains("--format avro", "schema_registry", "registry=URL");
        assertThat(unknown.exit()).isEqualTo(2);
        assertThat(unknown.err()).contains("subjekt", "known");
        assertThat(unreachable.exit()).isEqualTo(1);
        assertThat(unreachable.err()).contains("--format avro", "did not answer");
    }

    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
