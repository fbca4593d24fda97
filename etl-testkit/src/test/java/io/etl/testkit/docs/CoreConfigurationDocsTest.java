package io.etl.testkit.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.core.config.BatchConfig;
import io.etl.core.config.BreakerConfig;
import io.etl.core.config.CheckpointConfig;
import io.etl.core.config.MetricsConfig;
import io.etl.core.config.PipelineSection;
import io.etl.core.config.RetryConfig;
import io.etl.core.config.RetryLevel;
import io.etl.core.config.RetryTopicsConfig;
import io.etl.core.config.SinkPoolConfig;
import io.etl.core.config.StageConfig;
import io.etl.core.config.TracingConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code docs/configuration.md} documents every key of every core configuration record (checked here: the core
 * cannot depend on the testkit).
 */
class CoreConfigurationDocsTest {

    /** Surefire runs in the module directory. */
    static final Path CONFIGURATION_MD = Path.of("..", "docs", "configuration.md");

    @ParameterizedTest
    @ValueSource(
            classes = {
                PipelineSection.class,
                StageConfig.class,
                TracingConfig.class,
                CheckpointConfig.class,
                MetricsConfig.class,
                SinkPoolConfig.class,
                BatchConfig.class,
                RetryConfig.class,
                BreakerConfig.class,
                RetryTopicsConfig.class,
                RetryLevel.class
            })
    @SuppressWarnings("unchecked")
    void everyCoreKeyIsDocumented(Class<?> record) {
        List<String> missing = ConfigDocumentation.undocumentedKeys(CONFIGURATION_MD, (Class<? extends Record>) record);

        assertThat(missing)
                .as("keys of %s without a row in %s", record.getSimpleName(), CONFIGURATION_MD)
                .isEmpty();
    }

    @Test
    void sourceOnErrorIsDocumentedAndConnectorsHaveTheirPlace() throws Exception {
        String markdown = Files.readString(CONFIGURATION_MD);

        assertThat(markdown).contains("`source.<name>.<connector>.on_error`", "<!-- connector sections below -->");
    }
}
