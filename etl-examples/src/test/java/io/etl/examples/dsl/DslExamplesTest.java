package io.etl.examples.dsl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etl.core.config.PipelineConfig;
import io.etl.core.error.ConfigException;
import io.etl.core.error.DeadLetterHandler;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Every pipeline the DSL guide quotes is a valid definition; building one does no I/O. */
class DslExamplesTest {

    private static PipelineConfig config() throws IOException {
        try (InputStream in = DslExamples.class.getResourceAsStream("/dsl-examples.yaml")) {
            return PipelineConfig.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), name -> null);
        }
    }

    @Test
    void quotedPipelinesBuild() throws IOException {
        PipelineConfig config = config();
        DeadLetterHandler handler = (meta, value, error) -> CompletableFuture.completedFuture(null);

        assertThat(DslExamples.operators(config).build().name()).isEqualTo("orders-enriched");
        assertThat(DslExamples.errorPolicies(config, handler).build().name()).isEqualTo("orders-checked");
        assertThat(DslExamples.allMatching(config).name()).isEqualTo("orders-audit");
        assertThat(DslExamples.byKey(config).name()).isEqualTo("orders-by-market");
        assertThat(DslExamples.customMessages(config).build().name()).isEqualTo("orders-by-customer");
        assertThat(DslExamples.routed(config).name()).isEqualTo("orders-by-region");
        assertThat(DslExamples.retriedLater(config).name()).isEqualTo("orders-checked-later");
    }

    @Test
    void pipelineConfiguredInCodeBuildsWithoutAFile() {
        assertThat(DslExamples.configuredInCode("localhost:9092").name()).isEqualTo("orders-in-code");
    }

    @Test
    void aDeadLetterStageWithoutHandlerIsRejectedBeforeAnyIo() throws IOException {
        PipelineConfig config = config();

        assertThatThrownBy(() -> DslExamples.errorPolicies(config, null).start(config))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("dead-letter handler")
                .hasMessageContaining("dead_letter section");
    }
}
