package io.etl.kafka.source.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etl.core.PipelineResult;
import io.etl.core.PipelineState;
import io.etl.core.RunningPipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.core.metrics.EtlMetrics;
import io.etl.testkit.EmbeddedKafka;
import io.etl.testkit.KafkaTestCluster;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code pipeline.threads: 2}: two loops in one process, two members of the group, sharing the sink's producer.
 * Each loop gets partitions, every record is written once after a clean run, and a SIGTERM drains both loops.
 */
@EmbeddedKafka(shared = true)
class PipelineThreadsIT {

    private static final int PARTITIONS = 6;
    private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(10);

    @RegisterExtension
    final ChildPipelines children = new ChildPipelines();

    @Test
    @Timeout(120)
    void twoLoopsShareTheGroupsPartitionsAndWriteEveryRecordOnce(KafkaTestCluster kafka) {
        int orders = 6_000;
        RunTopics t = RunTopics.create(kafka, "threads", PARTITIONS);
        PipelineConfig config = t.yaml(kafka).pipeline("threads", "2").parse();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();

        RunningPipeline running = Pipelines.copy(config).start(config, registry);
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> running.state() == PipelineState.RUNNING
                        && running.assignedPartitions().size() == PARTITIONS);
        // RUNNING: every loop has partitions (a loop without any keeps the run STARTING)
        kafka.produce(t.input(), orders, Orders::record);
        PipelineResult result = Delivery.runUntilCaughtUp(kafka, running, t.group(), t.input(), Duration.ofSeconds(60));

        assertThat(result.status()).as("%s", result).isEqualTo(PipelineResult.Status.COMPLETED);
        assertThat(running.state()).isEqualTo(PipelineState.STOPPED);
        assertThat(result.recordsIn()).isEqualTo(orders);
        long first = readBy(registry, "1");
        long second = readBy(registry, "2");
        assertThat(first).as("records read by loop 1").isPositive();
        assertThat(second).as("records read by loop 2").isPositive();
        assertThat(first + second).isEqualTo(orders);
        Map<String, Integer> out = Delivery.idCounts(kafka, t.output());
        assertThat(out).hasSize(orders);
        assertThat(Delivery.duplicates(out)).isZero();
        assertThat(kafka.committedOffsets(t.group())).isEqualTo(kafka.endOffsets(t.input()));
    }

    @Test
    @Timeout(120)
    void sigtermDrainsEveryLoopAndTheRestartWritesNothingTwice(KafkaTestCluster kafka, @TempDir Path dir) {
        int orders = 20_000;
        RunTopics t = RunTopics.create(kafka, "threads-sigterm", PARTITIONS);
        Path yaml = t.staticMemberYaml(kafka)
                .pipeline("threads", "2")
                .pool(4, 4, 500, "5ms")
                .checkpoint("200ms", DRAIN_TIMEOUT.toSeconds() + "s")
                .write(dir);

        ChildPipeline first = children.start("copy", yaml, t.uid() + "-first");
        // the input arrives once the loops run, so that the signal comes while it still arrives
        await().atMost(Duration.ofSeconds(60)).until(() -> first.tail().contains("assigned"));
        try (LoadProducer load = LoadProducer.start(kafka, t.input(), PARTITIONS, orders, 2_500)) {
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> kafka.committedTotal(t.group()) >= orders / 4);
            first.sigterm();
            int exit = first.waitFor(DRAIN_TIMEOUT.plusSeconds(10));
            assertThat(exit).as("exit code after SIGTERM:%n%s", first.tail()).isZero();
            assertThat(load.sent())
                    .as("signalled while input was still arriving")
                    .isLessThan(orders);

            ChildPipeline second = children.start("copy", yaml, t.uid() + "-second");
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> load.done() && Delivery.caughtUp(kafka, t.group(), t.input()));
            second.stopWithin(DRAIN_TIMEOUT.plusSeconds(10));
        }

        Map<String, Integer> out = Delivery.idCounts(kafka, t.output());
        assertThat(out).hasSize(orders);
        assertThat(Delivery.duplicates(out))
                .as("duplicates after a drained restart")
                .isZero();
        assertThat(kafka.committedOffsets(t.group())).isEqualTo(kafka.endOffsets(t.input()));
    }

    /** What loop {@code thread} read, by its {@code etl_source_records_total}. */
    private static long readBy(SimpleMeterRegistry registry, String thread) {
        return (long) registry.find(EtlMetrics.SOURCE_RECORDS).tag(EtlMetrics.TAG_THREAD, thread).counters().stream()
                .mapToDouble(Counter::count)
                .sum();
    }
}
