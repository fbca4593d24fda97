package ${package};

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.etl.core.config.PipelineConfig;
import io.etl.core.error.DeadLetter;
import io.etl.core.error.RecordException;
import io.etl.testkit.driver.PipelineTestDriver;
import io.etl.testkit.driver.TestSink;
import io.etl.testkit.driver.TestSource;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The pipeline's logic through the broker-free {@link PipelineTestDriver}, and its shipped configuration. The
 * samples in {@code src/test/resources/samples} are what {@code AppPipelineIT} runs on Kafka too.
 */
class AppPipelineTest {

    private static final Path SAMPLES = Path.of("src/test/resources/samples");

    @Test
    void writesEveryEventThroughTheTransformAndCommitsIt() {
## tag::driver[]
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<Event> input = driver.input("input", Event.class);
            TestSink<Event> output = driver.output("output", Event.class);
            driver.start(AppPipeline.define(input, output));

            input.send("k1", new Event("1", "hello"));
            input.sendText("k2", "{\"id\": \"2\", \"text\": \"world\"}");   // the bytes a producer wrote
            driver.awaitCommitted();

            // change these with AppPipeline.transform: they say what the pipeline does
            assertThat(output.values()).containsExactly(new Event("1", "HELLO"), new Event("2", "WORLD"));
            assertThat(driver.committedOffsets()).isEqualTo(input.endOffsets());
        }
## end::driver[]
    }

    @Test
    void whatCannotBeReadOrTransformedGoesToTheDeadLettersAsItWasRead() {
## tag::dead-letters[]
        // the source's on_error comes from pipeline.yaml, as it does on Kafka
        PipelineConfig config = PipelineConfig.load(Path.of("pipeline.yaml"));
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<Event> input = driver.input("input", Event.class).onError(config.source("input").onError());
            TestSink<Event> output = driver.output("output", Event.class);
            driver.start(AppPipeline.define(input, output));

            input.sendText("k1", "{\"id\": \"1\"}");                       // no text: the transform rejects it
            byte[] garbage = "not json".getBytes(StandardCharsets.UTF_8);
            input.sendUndecodable("k2", garbage);                          // not an Event at all
            input.send("k3", new Event("3", "fine"));
            driver.awaitCommitted();

            assertThat(output.values()).containsExactly(new Event("3", "FINE"));
            assertThat(driver.deadLetters()).hasSize(2);
            DeadLetter rejected = driver.deadLetters().get(0);
            assertThat(rejected.stage()).isEqualTo("operator:transform");
            assertThat(rejected.error().reason()).isEqualTo(RecordException.OPERATOR);
            assertThat(new String(rejected.value(), StandardCharsets.UTF_8)).isEqualTo("{\"id\": \"1\"}");
            DeadLetter unreadable = driver.deadLetters().get(1);
            assertThat(unreadable.stage()).isEqualTo(DeadLetter.DECODE_STAGE);
            assertThat(unreadable.value()).isEqualTo(garbage);
        }
## end::dead-letters[]
    }

    @Test
    void theSamplesGiveTheExpectedOutput() throws IOException {
        PipelineConfig config = PipelineConfig.load(Path.of("pipeline.yaml"));
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<Event> input = driver.input("input", Event.class).onError(config.source("input").onError());
            TestSink<Event> output = driver.output("output", Event.class);
            driver.start(AppPipeline.define(input, output));

            for (String line : lines(SAMPLES.resolve("input.jsonl"))) {
                input.sendText(null, line);
            }
            driver.awaitCommitted();

            List<Event> expected = new ArrayList<>();
            ObjectMapper json = new ObjectMapper();
            for (String line : lines(SAMPLES.resolve("expected-output.jsonl"))) {
                expected.add(json.readValue(line, Event.class));
            }
            assertThat(output.values()).containsExactlyInAnyOrderElementsOf(expected);
        }
    }

    @Test
    void shippedConfigurationLoadsAndTheFactoryBuildsFromIt() {
        PipelineConfig config = PipelineConfig.load(Path.of("pipeline.yaml"));

        var pipeline = new AppPipelineFactory().create(config).build();

        assertThat(pipeline.name()).isEqualTo(AppPipeline.NAME);
    }

    /** The lines of a samples file that are not blank. */
    static List<String> lines(Path file) throws IOException {
        return Files.readAllLines(file, StandardCharsets.UTF_8).stream().filter(l -> !l.isBlank()).toList();
    }
}
