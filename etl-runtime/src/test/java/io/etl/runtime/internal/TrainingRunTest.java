package io.etl.runtime.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.core.Pipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.runtime.PipelineFactory;
import io.etl.runtime.it.CopyPipelineFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TrainingRunTest {

    @TempDir
    Path dir;

    private PipelineConfig copyConfig() throws IOException {
        return PipelineConfig.load(Files.writeString(dir.resolve("copy.yaml"), """
                pipeline: {name: copy}
                source:
                  in: {kafka: {brokers: "127.0.0.1:9", topics: [a], group_id: g}}
                sinks:
                  out: {kafka: {brokers: "127.0.0.1:9", topic: b}}
                """));
    }

    @Test
    void buildsTheOnlyPipelineAndTheMetricsWithoutABroker() throws IOException {
        List<String> steps = TrainingRun.run(copyConfig(), () -> Factories.of(List.of(new CopyPipelineFactory())));

        assertThat(steps).containsExactly("configuration preload finished", "pipeline 'copy' built", steps.get(2));
        assertThat(steps.get(2))
                .startsWith("metrics registry with the JVM's meters: ")
                .endsWith(" lines scraped");
        long lines = Long.parseLong(steps.get(2).replaceAll("\\D+", ""));
        assertThat(lines).isGreaterThan(20);
    }

    @Test
    void saysWhyNoPipelineWasBuiltAndStillDoesTheRest() throws IOException {
        PipelineConfig config = copyConfig();

        assertThat(TrainingRun.run(config, () -> Factories.of(List.of())).get(1))
                .isEqualTo("pipeline not built: 0 pipeline factories on the class path []");
        assertThat(TrainingRun.run(config, () -> Factories.of(List.of(new CopyPipelineFactory(), new Named("other")))))
                .hasSize(3)
                .element(1)
                .isEqualTo("pipeline not built: 2 pipeline factories on the class path [copy, other]");
        assertThat(TrainingRun.run(config, () -> Factories.of(List.of(new Named("broken"))))
                        .get(1))
                .startsWith("pipeline not built: factory 'broken' failed: ")
                .contains("no such source section");
        assertThat(TrainingRun.run(config, () -> Factories.of(List.of(new Named("twice"), new Named("twice"))))
                        .get(1))
                .as("why the class path's factories cannot be used")
                .startsWith("pipeline not built: two pipeline factories are named 'twice': ");
    }

    /** A factory whose pipeline reads a source section the file does not have. */
    private record Named(String name) implements PipelineFactory {
        @Override
        public Pipeline create(PipelineConfig config) {
            config.source("missing");
            throw new AssertionError("the section exists");
        }
    }
}
