package io.etl.kafka.source.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etl.testkit.EmbeddedKafka;
import io.etl.testkit.KafkaTestCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Acceptance 6: SIGTERM under load drains and exits 0 within drain_timeout; the restart duplicates nothing. */
@EmbeddedKafka(shared = true)
class SigtermDrainIT {

    /** Six seconds of input from the moment the first copy has its partitions. */
    private static final int ORDERS = 15_000;

    private static final int PARTITIONS = 3;
    private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(10);

    @RegisterExtension
    final ChildPipelines children = new ChildPipelines();

    @Test
    @Timeout(180)
    void drainsOnSigtermExitsZeroAndRestartsWithoutDuplicates(KafkaTestCluster kafka, @TempDir Path dir) {
        RunTopics t = RunTopics.create(kafka, "sigterm", PARTITIONS);
        Path yaml = t.staticMemberYaml(kafka)
                .pool(4, 4, 500, "5ms")
                .checkpoint("200ms", DRAIN_TIMEOUT.toSeconds() + "s")
                .write(dir);

        ChildPipeline first = children.start("copy", yaml, t.uid() + "-first");
        // the input starts once the copy has its partitions: the SIGTERM meets input still arriving however long
        // the JVM took to start
        await().atMost(Duration.ofSeconds(60)).until(() -> first.tail().contains("assigned"));
        try (LoadProducer load = LoadProducer.start(kafka, t.input(), PARTITIONS, ORDERS, 2_500)) {
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> kafka.committedTotal(t.group()) >= ORDERS / 4);
            long signalled = System.nanoTime();
            first.sigterm();
            int exit = first.waitFor(DRAIN_TIMEOUT.plusSeconds(10));
            Duration took = Duration.ofNanos(System.nanoTime() - signalled);
            System.out.printf("SIGTERM at %d produced: exit %d after %d ms%n", load.sent(), exit, took.toMillis());
            assertThat(exit).as("exit code after SIGTERM:%n%s", first.tail()).isZero();
            assertThat(took).isLessThan(DRAIN_TIMEOUT.plusSeconds(5));
            assertThat(load.sent())
                    .as("signalled while input was still arriving")
                    .isLessThan(ORDERS);

            ChildPipeline second = children.start("copy", yaml, t.uid() + "-second");
            await().atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> load.done() && Delivery.caughtUp(kafka, t.group(), t.input()));
            second.stopWithin(DRAIN_TIMEOUT.plusSeconds(10));
        }

        Map<String, Integer> out = Delivery.idCounts(kafka, t.output());
        assertThat(out).hasSize(ORDERS);
        assertThat(Delivery.duplicates(out))
                .as("duplicates after a drained restart")
                .isZero();
        assertThat(kafka.committedOffsets(t.group())).isEqualTo(kafka.endOffsets(t.input()));
    }
}
