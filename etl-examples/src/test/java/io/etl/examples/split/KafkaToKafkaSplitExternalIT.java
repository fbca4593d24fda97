package io.etl.examples.split;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etl.examples.ExampleProcess;
import io.etl.testkit.EmbeddedKafka;
import io.etl.testkit.KafkaTestCluster;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The program against an external cluster ({@code KAFKA_BROKERS} set), in its own JVM as a user runs it:
 * the first run writes sample orders and processes them, SIGTERM drains it and it exits 0; a second run on
 * the same input finds the group's offsets committed, writes nothing, and exits 0 on SIGTERM too.
 */
@EmbeddedKafka(shared = true)
class KafkaToKafkaSplitExternalIT {

    private static final int RECORDS = 3_000;
    private static final Duration RUN_TIMEOUT = Duration.ofSeconds(90);

    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void killLeftovers() {
        started.forEach(Process::destroyForcibly);
    }

    @Test
    void secondRunOnTheSameInputWritesNothingAndSigtermDrainsToExitZero(KafkaTestCluster kafka) throws Exception {
        String run = UUID.randomUUID().toString().substring(0, 8);
        Map<String, String> env = new LinkedHashMap<>();
        env.put("KAFKA_BROKERS", kafka.bootstrapServers());
        env.put("GROUP_ID", "split-ext-" + run);
        env.put("ORDERS_TOPIC", "orders-" + run);
        env.put("ORDERS_EU_TOPIC", "orders-eu-" + run);
        env.put("ORDERS_US_TOPIC", "orders-us-" + run);
        env.put("ORDERS_APAC_TOPIC", "orders-apac-" + run);
        env.put("ORDERS_UNROUTED_TOPIC", "orders-unrouted-" + run);
        List<String> outputs = List.of(
                env.get("ORDERS_EU_TOPIC"),
                env.get("ORDERS_US_TOPIC"),
                env.get("ORDERS_APAC_TOPIC"),
                env.get("ORDERS_UNROUTED_TOPIC"));
        Map<String, Long> expected = OrderGenerator.expectedCounts(RECORDS);
        long expectedWritten = RECORDS - expected.get("dropped");

        // first run: writes the sample orders, processes them, stays up until SIGTERM
        Child first = start(env, run + "-1", "--records", Integer.toString(RECORDS));
        await("all orders on the output topics")
                .atMost(RUN_TIMEOUT)
                .pollInterval(Duration.ofMillis(250))
                .until(() -> written(kafka, outputs) >= expectedWritten);
        await("input committed")
                .atMost(RUN_TIMEOUT)
                .pollInterval(Duration.ofMillis(250))
                .until(() -> committedEqualsEnd(kafka, env.get("GROUP_ID"), env.get("ORDERS_TOPIC")));
        assertThat(first.stopAndWait())
                .as("first run's exit code; stderr:%n%s", first.err())
                .isZero();
        assertThat(first.summary())
                .containsEntry("input", (long) RECORDS)
                .containsEntry("dropped", expected.get("dropped"))
                .containsEntry("orders-eu", expected.get("eu"));
        Map<String, Long> after = ends(kafka, outputs);
        assertThat(after.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(expectedWritten);

        // second run on the same input: the group resumes at its committed offsets and writes nothing
        Child second = start(env, run + "-2");
        await("second run consuming")
                .atMost(RUN_TIMEOUT)
                .pollInterval(Duration.ofMillis(250))
                .until(() -> second.err().contains("assigned ["));
        await("a stable group: committed offsets equal end offsets")
                .atMost(RUN_TIMEOUT)
                .pollInterval(Duration.ofMillis(250))
                .until(() -> committedEqualsEnd(kafka, env.get("GROUP_ID"), env.get("ORDERS_TOPIC")));
        assertThat(second.stopAndWait())
                .as("second run's exit code; stderr:%n%s", second.err())
                .isZero();
        assertThat(second.summary()).containsEntry("input", 0L).containsEntry("orders-eu", 0L);
        assertThat(ends(kafka, outputs)).isEqualTo(after);
    }

    private static long written(KafkaTestCluster kafka, List<String> topics) {
        return ends(kafka, topics).values().stream().mapToLong(Long::longValue).sum();
    }

    private static Map<String, Long> ends(KafkaTestCluster kafka, List<String> topics) {
        Map<String, Long> ends = new LinkedHashMap<>();
        for (String topic : topics) {
            try {
                ends.put(topic, kafka.endTotal(topic));
            } catch (RuntimeException notYetCreated) {
                ends.put(topic, 0L);
            }
        }
        return ends;
    }

    private static boolean committedEqualsEnd(KafkaTestCluster kafka, String group, String topic) {
        Map<TopicPartition, Long> end = kafka.endOffsets(topic);
        Map<TopicPartition, Long> committed = kafka.committedOffsets(group);
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            if (e.getValue() > 0 && !e.getValue().equals(committed.get(e.getKey()))) {
                return false;
            }
        }
        return true;
    }

    private Child start(Map<String, String> env, String name, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of("kafka_to_kafka_split", "--http-port", "0"));
        command.addAll(List.of(args));
        List<String> cleared = new ArrayList<>(List.of("GROUP_ID", "KAFKA_BROKERS"));
        System.getenv().keySet().stream().filter(k -> k.startsWith("ORDERS_")).forEach(cleared::add);
        ExampleProcess process = ExampleProcess.start(name, env, cleared, command.toArray(String[]::new));
        started.add(process.process());
        return new Child(process);
    }

    private record Child(ExampleProcess process) {

        int stopAndWait() throws InterruptedException {
            return process.stopAndWait();
        }

        String err() {
            return process.err();
        }

        Map<String, Long> summary() {
            List<String> lines = process.out().lines().toList();
            assertThat(lines).as("stdout of %s", process.outFile()).isNotEmpty();
            return new HashMap<>(SplitSummary.parseLine(lines.get(lines.size() - 1)));
        }
    }
}
