package ${package};

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.core.config.PipelineConfig;
import io.etl.testkit.driver.PipelineTestDriver;
import io.etl.testkit.driver.TestSink;
import io.etl.testkit.driver.TestSource;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The pipeline's logic through the broker-free {@link PipelineTestDriver}, and its shipped configuration. */
class AppPipelineTest {

    @Test
    void writesEveryRecordThroughTheTransformAndCommitsIt() {
## tag::driver[]
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<String> input = driver.source("input", 2);
            TestSink<String> output = driver.sink("output");
            driver.start(AppPipeline.define(input, output));

            input.send("k1", "hello");
            input.send("k2", "world");
            driver.awaitCommitted(Duration.ofSeconds(10));

            // change these with AppPipeline.transform: they say what the pipeline does
            assertThat(output.values()).containsExactlyInAnyOrder("HELLO", "WORLD");
            assertThat(driver.committedOffsets()).isEqualTo(input.endOffsets());
        }
## end::driver[]
    }

    @Test
    void aTombstoneIsSkippedAndCommittedWithTheRest() {
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<String> input = driver.source("input", 1);
            TestSink<String> output = driver.sink("output");
            driver.start(AppPipeline.define(input, output));

            input.send("k1", "hello");
            input.send("k2", null);
            input.send("k3", "world");
            driver.awaitCommitted(Duration.ofSeconds(10));

            assertThat(output.values()).containsExactly("HELLO", "WORLD");
            assertThat(driver.committedOffsets()).isEqualTo(input.endOffsets());
        }
    }

    @Test
    void shippedConfigurationLoadsAndTheFactoryBuildsFromIt() {
        PipelineConfig config = PipelineConfig.load(Path.of("pipeline.yaml"));

        var pipeline = new AppPipelineFactory().create(config).build();

        assertThat(pipeline.name()).isEqualTo(AppPipeline.NAME);
    }
}
