package io.etl.kafka.source.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etl.testkit.EmbeddedKafka;
import io.etl.testkit.KafkaTestCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Acceptance 6: SIGTERM under load drains and exits 0 within drain_timeout; the restart duplicates nothing. */
@EmbeddedKafka(shared = true)
class SigtermDrainIT {

    private static final int ORDERS = 30_000;
    private static final int PARTITIONS = 3;
    private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(10);

    private final List<ChildPipeline> children = new ArrayList<>();

    @AfterEach
    void killChildren() {
        children.forEach(ChildPipeline::close);
    }

    @Test
    @Timeout(180)
    void drainsOnSigtermExitsZeroAndRestartsWithoutDuplicates(KafkaTestCluster kafka, @TempDir Path dir) {
        String uid = Delivery.unique("sigterm");
        String input = "in-" + uid;
        String output = "out-" + uid;
        String group = "group-" + uid;
        kafka.createTopic(input, PARTITIONS);
        kafka.createTopic(output, PARTITIONS);
        Path yaml = PipelineYaml.of(uid, kafka.bootstrapServers(), input, group)
                .groupInstanceId("sigterm-instance").sink("out", output).pool(4, 4, 500, "5ms")
                .checkpoint("200ms", DRAIN_TIMEOUT.toSeconds() + "s").write(dir);
        Path logs = Path.of("target", "it-logs");

        ChildPipeline first = start(yaml, logs.resolve(uid + "-first.log"));
        try (LoadProducer load = LoadProducer.start(kafka, input, PARTITIONS, ORDERS, 2_500)) {
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                    .until(() -> committedTotal(kafka, group) >= ORDERS / 4);
            long signalled = System.nanoTime();
            first.sigterm();
            int exit = first.waitFor(DRAIN_TIMEOUT.plusSeconds(10));
            Duration took = Duration.ofNanos(System.nanoTime() - signalled);
            System.out.printf("SIGTERM at %d produced: exit %d after %d ms%n", load.sent(), exit, took.toMillis());
            assertThat(exit).as("exit code after SIGTERM:%n%s", first.tail()).isZero();
            assertThat(took).isLessThan(DRAIN_TIMEOUT.plusSeconds(5));
            assertThat(load.sent()).as("signalled while input was still arriving").isLessThan(ORDERS);

            ChildPipeline second = start(yaml, logs.resolve(uid + "-second.log"));
            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
                    .until(() -> load.done() && Delivery.caughtUp(kafka, group, input));
            second.sigterm();
            assertThat(second.waitFor(DRAIN_TIMEOUT.plusSeconds(10))).as("second exit:%n%s", second.tail()).isZero();
        }

        Map<String, Integer> out = Delivery.idCounts(kafka, output);
        assertThat(out).hasSize(ORDERS);
        assertThat(Delivery.duplicates(out)).as("duplicates after a drained restart").isZero();
        assertThat(kafka.committedOffsets(group)).isEqualTo(kafka.endOffsets(input));
    }

    private ChildPipeline start(Path yaml, Path log) {
        ChildPipeline child = ChildPipeline.start("copy", yaml, log);
        children.add(child);
        return child;
    }

    private static long committedTotal(KafkaTestCluster kafka, String group) {
        return kafka.committedOffsets(group).values().stream().mapToLong(Long::longValue).sum();
    }
}
