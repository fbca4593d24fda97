package ${package};

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.etl.core.PipelineResult;
import io.etl.core.RunningPipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.testkit.EmbeddedKafka;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.TestRecord;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The shipped {@code pipeline.yaml} and {@link AppPipelineFactory} against a real Kafka broker that the test starts in
 * its own JVM ({@code mvn verify}; no Docker, no Kafka installation): the sample input, written as a producer would
 * write it, comes out as the expected output. It compares bytes read as JSON (else as text), not Java types, so it
 * holds whatever types the pipeline uses: keep {@code src/test/resources/samples} in step with the pipeline. With
 * {@code KAFKA_BROKERS} set, the same test runs against that cluster instead.
 */
@EmbeddedKafka
class AppPipelineIT {

    private static final Path SAMPLES = Path.of("src/test/resources/samples");
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theSamplesGoThroughTheShippedConfigurationToTheExpectedOutput(KafkaTestCluster kafka) throws Exception {
        String suffix = Long.toString(System.nanoTime(), 36);
        Map<String, String> env = Map.of(
                "KAFKA_BROKERS", kafka.bootstrapServers(),
                "INPUT_TOPIC", "input-" + suffix,
                "OUTPUT_TOPIC", "output-" + suffix,
                "DEAD_LETTER_TOPIC", "dlq-" + suffix,
                "GROUP_ID", "it-" + suffix);
        kafka.createTopic(env.get("INPUT_TOPIC"), 3);
        kafka.createTopic(env.get("OUTPUT_TOPIC"), 3);
        kafka.createTopic(env.get("DEAD_LETTER_TOPIC"), 1);
        List<String> samples = AppPipelineTest.lines(SAMPLES.resolve("input.jsonl"));
        kafka.produce(env.get("INPUT_TOPIC"), samples.stream().map(line -> TestRecord.of(null, line)).toList());
        PipelineConfig config = PipelineConfig.parse(Files.readString(Path.of("pipeline.yaml")), env::get);

        try (RunningPipeline running = new AppPipelineFactory().create(config).start(config)) {
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> kafka.committedTotal(env.get("GROUP_ID")) == samples.size());
            PipelineResult result = running.stopAndWait(Duration.ofSeconds(30));
            assertThat(result.succeeded()).as("%s", result).isTrue();
        }

        List<String> written = kafka.readAll(env.get("OUTPUT_TOPIC")).stream()
                .map(record -> normalized(record.value()))
                .toList();
        List<String> expected = AppPipelineTest.lines(SAMPLES.resolve("expected-output.jsonl")).stream()
                .map(line -> normalized(line.getBytes(StandardCharsets.UTF_8)))
                .toList();
        assertThat(written).containsExactlyInAnyOrderElementsOf(expected);
    }

    /** A value as compact JSON when it is JSON, else as text. */
    private static String normalized(byte[] value) {
        if (value == null) {
            return "(tombstone)";
        }
        try {
            return JSON.readTree(value).toString();
        } catch (Exception notJson) {
            return new String(value, StandardCharsets.UTF_8);
        }
    }
}
