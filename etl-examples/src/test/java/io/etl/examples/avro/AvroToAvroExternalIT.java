package io.etl.examples.avro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etl.examples.ExampleProcess;
import io.etl.testkit.EmbeddedKafka;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.schema.SchemaRegistryServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code avro_to_avro --records N} on a cluster and registry of its own ({@code KAFKA_BROKERS} and
 * {@code SCHEMA_REGISTRY_URL} set), in its own JVM as a user runs it against a development broker: it creates the
 * topics, registers the schemas the samples and the ledger use (the ledger sink itself registers nothing),
 * writes the payments, accounts for every one of them and drains to exit 0 on SIGTERM.
 */
@EmbeddedKafka(shared = true)
class AvroToAvroExternalIT {

    private static final int RECORDS = 600;
    private static final Duration RUN_TIMEOUT = Duration.ofSeconds(90);

    private ExampleProcess child;

    @AfterEach
    void killLeftover() {
        if (child != null) {
            child.process().destroyForcibly();
        }
    }

    @Test
    void recordsOnAFreshClusterCreateTopicsRegisterSchemasAndEveryPaymentIsAccountedFor(KafkaTestCluster kafka)
            throws Exception {
        String run = UUID.randomUUID().toString().substring(0, 8);
        SamplePayments.Expected expected = SamplePayments.expected(RECORDS);
        String payments = "payments-" + run;
        String ledger = "ledger-" + run;
        String deadLetters = "payments-dead-letters-" + run;
        try (SchemaRegistryServer registry = SchemaRegistryServer.start()) {
            Map<String, String> env = Map.of(
                    "KAFKA_BROKERS",
                    kafka.bootstrapServers(),
                    "SCHEMA_REGISTRY_URL",
                    registry.url(),
                    "PAYMENTS_TOPIC",
                    payments,
                    "LEDGER_TOPIC",
                    ledger,
                    "DEAD_LETTER_TOPIC",
                    deadLetters,
                    "GROUP_ID",
                    "avro-ext-" + run);
            child = ExampleProcess.start(
                    "avro-" + run,
                    env,
                    List.of("AUTO_REGISTER"),
                    "avro_to_avro",
                    "--records",
                    Integer.toString(RECORDS));

            await("every payment accounted for and committed")
                    .atMost(RUN_TIMEOUT)
                    .pollInterval(Duration.ofMillis(250))
                    .until(() -> endOf(kafka, ledger) >= expected.ledger()
                            && endOf(kafka, deadLetters) >= expected.deadLetters()
                            && committedToEnd(kafka, "avro-ext-" + run, payments));

            assertThat(child.stopAndWait())
                    .as("exit code; stderr:%n%s", child.err())
                    .isZero();
            assertThat(child.err()).contains("wrote 600 payments to " + payments);
            assertThat(kafka.endTotal(ledger)).isEqualTo(expected.ledger());
            assertThat(kafka.endTotal(deadLetters)).isEqualTo(expected.deadLetters());
            assertThat(kafka.endTotal(payments)).isEqualTo(RECORDS);
            assertThat(get(registry.url() + "/subjects/" + payments + "-value/versions"))
                    .isEqualTo("[1,2]");
            assertThat(get(registry.url() + "/subjects/" + ledger + "-value/versions"))
                    .isEqualTo("[1]");
        }
    }

    private static String get(String url) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("GET %s: %s", url, response.body()).isEqualTo(200);
        return response.body().replace(" ", "");
    }

    private static long endOf(KafkaTestCluster kafka, String topic) {
        try {
            return kafka.endTotal(topic);
        } catch (RuntimeException notYetCreated) {
            return 0;
        }
    }

    private static boolean committedToEnd(KafkaTestCluster kafka, String group, String topic) {
        Map<TopicPartition, Long> committed = kafka.committedOffsets(group);
        return kafka.endOffsets(topic).entrySet().stream()
                .allMatch(e -> e.getValue().equals(committed.getOrDefault(e.getKey(), 0L)));
    }
}
