package io.etl.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.examples.split.KafkaToKafkaSplit;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ValidateCommandTest {

    /** Surely unset in any environment the tests run in. */
    private static final String UNSET = "ETL_EXAMPLES_TEST_SURELY_UNSET_7F3A";

    @TempDir
    Path dir;

    private record Run(int exit, String out, String err) {
        List<String> errLines() {
            return Arrays.stream(err.split("\\R")).filter(l -> !l.isBlank()).toList();
        }
    }

    private static Run validate(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] all = new String[args.length + 1];
        all[0] = "validate";
        System.arraycopy(args, 0, all, 1, args.length);
        int exit = EtlExamples.execute(new PrintWriter(out), new PrintWriter(err), all);
        return new Run(exit, out.toString(), err.toString());
    }

    @Test
    void shippedConfigurationIsValid() throws IOException {
        Path file = dir.resolve("kafka_to_kafka_split.yaml");
        Files.writeString(file, KafkaToKafkaSplit.defaultYaml());

        Run run = validate(file.toString());

        assertThat(run.err()).isEmpty();
        assertThat(run.out().strip()).isEqualTo("ok: " + file + " (pipeline '" + KafkaToKafkaSplit.NAME + "')");
        assertThat(run.exit()).isZero();
    }

    @Test
    void aFileWithoutTheSectionsOfTheSplitPipelineIsRejected() throws IOException {
        Path file = dir.resolve("renamed.yaml");
        Files.writeString(file, KafkaToKafkaSplit.defaultYaml().replaceFirst("(?m)^  orders:", "  order:"));

        Run run = validate(file.toString());

        assertThat(run.exit()).as(run.out()).isEqualTo(1);
        assertThat(run.errLines()).singleElement().asString().startsWith("source.orders: no such source section");
    }

    @Test
    void namesEveryProblemOnItsOwnLineAndExitsOne() throws IOException {
        Path file = dir.resolve("broken.yaml");
        Files.writeString(file, """
                source:
                  orders:
                    kafka:
                      brokers: localhost:9092
                      topics: [orders]
                      group_id: g
                      consumer:
                        enable.auto.commit: "true"
                sinks:
                  eu:
                    kafka:
                      brokers: ${%s}
                      topic: orders-eu
                      delivery_timeout: 30 fortnights
                      max_mesage_bytes: 1MB
                """.formatted(UNSET));

        Run run = validate(file.toString());

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.out()).isEmpty();
        List<String> lines = run.errLines();
        assertThat(lines).hasSize(4);
        assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("source.orders.kafka.consumer.enable.auto.commit:"));
        assertThat(lines)
                .anySatisfy(
                        l -> assertThat(l).startsWith("sinks.eu.kafka.brokers:").contains(UNSET));
        assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("sinks.eu.kafka.delivery_timeout:"));
        assertThat(lines)
                .anySatisfy(l -> assertThat(l)
                        .startsWith("sinks.eu.kafka.max_mesage_bytes:")
                        .contains("max_message_bytes"));
    }

    @Test
    void aBadValueIsOneProblemInTheUsersTerms() throws IOException {
        Path file = dir.resolve("values.yaml");
        Files.writeString(file, """
                sinks:
                  eu:
                    kafka:
                      brokers: localhost:9092
                      topic: orders-eu
                      security:
                        protocol: SASL_SSL
                        sasl: {mechanism: SCRAM-SHA-1, username: u, password: p}
                      producer: {ssl.key.password: {a: b}, retries: [1]}
                """);

        Run run = validate(file.toString());

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.errLines())
                .containsExactlyInAnyOrder(
                        "sinks.eu.kafka.producer.retries: expected a string",
                        "sinks.eu.kafka.producer.ssl.key.password: expected a string",
                        "sinks.eu.kafka.security.sasl.mechanism: unknown SASL mechanism 'SCRAM-SHA-1' (expected one"
                                + " of PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, OAUTHBEARER, GSSAPI, AWS_MSK_IAM)");
    }

    @Test
    void neverEchoesSecrets() throws IOException {
        Path file = dir.resolve("secret.yaml");
        Files.writeString(file, """
                sinks:
                  eu:
                    kafka:
                      brokers: localhost:9092
                      topic: orders-eu
                      producer:
                        sasl.jaas.config: "org.apache.kafka.common.security.plain.PlainLoginModule required username=u password=hunter2-secret;"
                        linger_ms: "5"
                """);

        Run run = validate(file.toString());

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.errLines()).anySatisfy(l -> assertThat(l).startsWith("sinks.eu.kafka.producer.linger_ms:"));
        assertThat(run.out() + run.err()).doesNotContain("hunter2");
    }

    @Test
    void missingFileIsAProblemNotACrash() {
        Run run = validate(dir.resolve("nope.yaml").toString());

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.err()).contains("nope.yaml");
    }

    @Test
    void usageErrorsExitTwo() {
        assertThat(validate().exit()).isEqualTo(2);
        assertThat(validate("a.yaml", "b.yaml").exit()).isEqualTo(2);
        assertThat(validate("--no-such-option", "a.yaml").exit()).isEqualTo(2);
    }
}
