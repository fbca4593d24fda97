package io.etl.kafka.source.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etl.testkit.EmbeddedKafka;
import io.etl.testkit.KafkaTestCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Acceptance 2: a pipeline JVM is killed with SIGKILL at three random moments while it consumes 50,000
 * orders; every restart resumes, nothing is lost, and no offset is ever committed ahead of durable output.
 */
@EmbeddedKafka(shared = true)
class CrashRecoveryIT {

    private static final int ORDERS = 50_000;
    private static final int PARTITIONS = 3;
    private static final int RATE = 4_000;

    private final List<ChildPipeline> children = new ArrayList<>();

    @AfterEach
    void killChildren() {
        children.forEach(ChildPipeline::close);
    }

    @Test
    @Timeout(240)
    void shouldLoseNothingAndNeverCommitAheadOfOutputAcrossThreeSigkills(KafkaTestCluster kafka, @TempDir Path dir) {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        String uid = Delivery.unique("crash");
        String input = "in-" + uid;
        String output = "out-" + uid;
        String group = "group-" + uid;
        kafka.createTopic(input, PARTITIONS);
        kafka.createTopic(output, PARTITIONS);
        Path yaml = PipelineYaml.of(uid, kafka.bootstrapServers(), input, group)
                .groupInstanceId("crash-instance").sessionTimeout("6s")
                .sink("out", output).pool(4, 4, 500, "5ms").checkpoint("100ms", "10s")
                .write(dir);
        Path logs = Path.of("target", "it-logs");
        // kill when the committed total first passes each of these
        long[] killAt = {
                (long) (ORDERS * (0.10 + 0.15 * random.nextDouble())),
                (long) (ORDERS * (0.40 + 0.15 * random.nextDouble())),
                (long) (ORDERS * (0.70 + 0.15 * random.nextDouble()))};
        System.out.printf("crash test seed %d, kills at committed totals %d, %d, %d%n", seed, killAt[0], killAt[1],
                killAt[2]);

        int[] kills = {0};
        int[] samples = {0};
        long[] lastCommitted = {0};
        try (LoadProducer load = LoadProducer.start(kafka, input, PARTITIONS, ORDERS, RATE)) {
            children.add(ChildPipeline.start("copy", yaml, logs.resolve(uid + "-0.log")));
            await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(150)).until(() -> {
                ChildPipeline current = children.get(children.size() - 1);
                assertThat(current.isAlive()).as("pipeline JVM exited early:%n%s", current.tail()).isTrue();
                Map<TopicPartition, Long> committed = kafka.committedOffsets(group);
                // every id below a committed offset must already be in the output, read after the commit was seen
                Map<String, Integer> out = Delivery.idCounts(kafka, output);
                long total = 0;
                for (Map.Entry<TopicPartition, Long> e : committed.entrySet()) {
                    int p = e.getKey().partition();
                    for (long offset = 0; offset < e.getValue(); offset++) {
                        String id = LoadProducer.idAt(PARTITIONS, p, offset);
                        assertThat(out).as("output of %s, below committed offset %d of partition %d (sample %d)",
                                id, e.getValue(), p, samples[0]).containsKey(id);
                    }
                    total += e.getValue();
                }
                samples[0]++;
                assertThat(total).as("committed total never goes backwards").isGreaterThanOrEqualTo(lastCommitted[0]);
                lastCommitted[0] = total;
                if (kills[0] < killAt.length && total >= killAt[kills[0]]) {
                    current.kill9();
                    kills[0]++;
                    System.out.printf("SIGKILL %d at committed total %d, produced %d%n", kills[0], total, load.sent());
                    children.add(ChildPipeline.start("copy", yaml, logs.resolve(uid + "-" + kills[0] + ".log")));
                    return false;
                }
                return kills[0] == killAt.length && load.done() && total == ORDERS;
            });
        }
        ChildPipeline last = children.get(children.size() - 1);
        last.sigterm();
        assertThat(last.waitFor(Duration.ofSeconds(30))).as("exit code after SIGTERM:%n%s", last.tail()).isZero();

        Map<String, Integer> out = Delivery.idCounts(kafka, output);
        List<String> missing = new ArrayList<>();
        for (int i = 0; i < ORDERS; i++) {
            if (!out.containsKey(Orders.id(i))) {
                missing.add(Orders.id(i));
            }
        }
        System.out.printf("crash test: %d samples, %d kills, %d duplicates over %d orders%n", samples[0], kills[0],
                Delivery.duplicates(out), ORDERS);
        assertThat(missing).as("orders missing from the output").isEmpty();
        assertThat(kills[0]).isEqualTo(3);
        Map<TopicPartition, Long> expectedEnd = new HashMap<>(kafka.endOffsets(input));
        assertThat(kafka.committedOffsets(group)).isEqualTo(expectedEnd);
    }
}
