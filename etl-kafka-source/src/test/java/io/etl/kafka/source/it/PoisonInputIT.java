package io.etl.kafka.source.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.core.PipelineResult;
import io.etl.core.RunningPipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.core.error.RecordException;
import io.etl.core.metrics.EtlMetrics;
import io.etl.testkit.EmbeddedKafka;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.TestRecord;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Acceptance 5: malformed JSON every 997th record, under {@code skip} and under {@code fail}. */
@EmbeddedKafka(shared = true)
class PoisonInputIT {

    private static final int RECORDS = 5_000;
    private static final int EVERY = 997;

    private static boolean isPoison(int i) {
        return i % EVERY == EVERY - 1;
    }

    private static TestRecord record(int i) {
        return isPoison(i)
                ? TestRecord.of(Orders.id(i), "{\"id\":\"" + Orders.id(i) + "\", oops")
                        .toPartition(0)
                : Orders.record(i).toPartition(0);
    }

    @Test
    @Timeout(90)
    void skipCountsPoisonAndDeliversEverythingElse(KafkaTestCluster kafka) {
        RunTopics t = RunTopics.create(kafka, "poison-skip", 1);
        kafka.produce(t.input(), RECORDS, PoisonInputIT::record);
        PipelineConfig config = t.yaml(kafka).source("on_error", "skip").parse();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();

        RunningPipeline running = Pipelines.copy(config).start(config, registry);
        PipelineResult result = Delivery.runUntilCaughtUp(kafka, running, t.group(), t.input(), Duration.ofSeconds(60));

        assertThat(result.status()).as("result %s", result).isEqualTo(PipelineResult.Status.COMPLETED);
        Set<String> expected = new HashSet<>();
        int poison = 0;
        for (int i = 0; i < RECORDS; i++) {
            if (isPoison(i)) {
                poison++;
            } else {
                expected.add(Orders.id(i));
            }
        }
        Map<String, Integer> delivered = Delivery.idCounts(kafka, t.output());
        assertThat(delivered.keySet()).isEqualTo(expected);
        assertThat(Delivery.duplicates(delivered)).isZero();
        assertThat(registry.get(EtlMetrics.RECORDS_DROPPED)
                        .tag(EtlMetrics.TAG_REASON, RecordException.DECODE)
                        .counter()
                        .count())
                .isEqualTo(poison);
        assertThat(kafka.committedOffsets(t.group())).containsEntry(new TopicPartition(t.input(), 0), (long) RECORDS);
    }

    @Test
    @Timeout(90)
    void failStopsWithTheCommittedOffsetAtThePoisonRecord(KafkaTestCluster kafka) {
        RunTopics t = RunTopics.create(kafka, "poison-fail", 1);
        kafka.produce(t.input(), RECORDS, PoisonInputIT::record);
        PipelineConfig config = t.yaml(kafka).source("on_error", "fail").parse();

        RunningPipeline running = Pipelines.copy(config).start(config, new SimpleMeterRegistry());
        PipelineResult result = running.result().orTimeout(60, TimeUnit.SECONDS).join();

        long firstPoison = EVERY - 1;
        assertThat(result.status()).isEqualTo(PipelineResult.Status.FAILED);
        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.failure())
                .isInstanceOf(RecordException.class)
                .hasMessageContaining(t.input() + "-0")
                .hasMessageContaining(Long.toString(firstPoison));
        RecordException error = (RecordException) result.failure();
        assertThat(error.reason()).isEqualTo(RecordException.DECODE);
        assertThat(kafka.committedOffsets(t.group())).containsEntry(new TopicPartition(t.input(), 0), firstPoison);
        Map<String, Integer> delivered = Delivery.idCounts(kafka, t.output());
        for (int i = 0; i < firstPoison; i++) {
            assertThat(delivered).containsKey(Orders.id(i));
        }
    }
}
