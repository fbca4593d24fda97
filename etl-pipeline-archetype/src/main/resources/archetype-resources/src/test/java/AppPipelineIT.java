package ${package};

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etl.core.PipelineResult;
import io.etl.core.RunningPipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.testkit.EmbeddedKafka;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.TestRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The shipped {@code pipeline.yaml} and {@link AppPipelineFactory} against a real Kafka broker that the test
 * starts in its own JVM ({@code mvn verify}; no Docker, no Kafka installation). With {@code KAFKA_BROKERS} set,
 * the same test runs against that cluster instead.
 */
@EmbeddedKafka
class AppPipelineIT {

    private static final int RECORDS = 1_000;

    @Test
    void runsTheShippedConfigurationFromTheInputTopicToTheOutputTopic(KafkaTestCluster kafka) throws Exception {
        String suffix = Long.toString(System.nanoTime(), 36);
        Map<String, String> env = Map.of(
                "KAFKA_BROKERS", kafka.bootstrapServers(),
                "INPUT_TOPIC", "input-" + suffix,
                "OUTPUT_TOPIC", "output-" + suffix,
                "GROUP_ID", "it-" + suffix);
        kafka.createTopic(env.get("INPUT_TOPIC"), 3);
        kafka.createTopic(env.get("OUTPUT_TOPIC"), 3);
        kafka.produce(env.get("INPUT_TOPIC"), RECORDS, i -> TestRecord.of("k" + i, "order-" + i));
        PipelineConfig config = PipelineConfig.parse(Files.readString(Path.of("pipeline.yaml")), env::get);

        try (RunningPipeline running = new AppPipelineFactory().create(config).start(config)) {
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> kafka.committedTotal(env.get("GROUP_ID")) == RECORDS);
            PipelineResult result = running.stopAndWait(Duration.ofSeconds(30));
            assertThat(result.succeeded()).as("%s", result).isTrue();
        }

        // change this with AppPipeline.transform: every input record, transformed, under its own key
        assertThat(kafka.readAll(env.get("OUTPUT_TOPIC")))
                .hasSize(RECORDS)
                .anySatisfy(record -> {
                    assertThat(record.keyAsString()).isEqualTo("k7");
                    assertThat(record.valueAsString()).isEqualTo(AppPipeline.transform("order-7"));
                });
    }
}
