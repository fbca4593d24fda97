package io.etl.kafka.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.kafka.common.KafkaSaslConfig;
import io.etl.kafka.common.KafkaSecurityConfig;
import io.etl.kafka.common.KafkaTlsConfig;
import io.etl.kafka.sink.internal.ProducerSettings;
import io.etl.testkit.docs.ConfigDocumentation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** docs/configuration.md documents every key of the sink's records, and every denied passthrough key. */
class ConfigurationDocsTest {

    private static final Path DOC = Path.of("..", "docs", "configuration.md");

    @ParameterizedTest
    @ValueSource(
            classes = {
                KafkaSinkConfig.class,
                TopicSpec.class,
                RouteConfig.class,
                TopicCreation.class,
                KafkaSecurityConfig.class,
                KafkaTlsConfig.class,
                KafkaSaslConfig.class
            })
    @SuppressWarnings("unchecked")
    void everyKeyIsDocumented(Class<?> record) {
        assertThat(ConfigDocumentation.undocumentedKeys(DOC, (Class<? extends Record>) record))
                .isEmpty();
    }

    @Test
    void everyDeniedKeyIsInTheDenylistTable() throws Exception {
        String doc = Files.readString(DOC);
        List<String> missing = ProducerSettings.DENIED.keySet().stream()
                .filter(key -> !doc.contains("`" + key + "`"))
                .toList();
        assertThat(missing).isEmpty();
    }
}
