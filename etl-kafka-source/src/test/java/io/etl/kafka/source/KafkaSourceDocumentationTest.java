package io.etl.kafka.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.testkit.docs.ConfigDocumentation;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class KafkaSourceDocumentationTest {

    private static final Path CONFIGURATION_MD = Path.of("..", "docs", "configuration.md");

    @Test
    void everyKafkaSourceKeyIsDocumented() {
        assertThat(ConfigDocumentation.undocumentedKeys(CONFIGURATION_MD, KafkaSourceConfig.class))
                .isEmpty();
    }

    @Test
    void everyDeniedConsumerPropertyIsDocumentedWithItsReason() throws IOException {
        String doc = Files.readString(CONFIGURATION_MD);
        String section = doc.substring(doc.indexOf("### `KafkaSourceConfig`"));
        for (String key : KafkaSourceConfig.DENIED_CONSUMER_PROPERTIES.keySet()) {
            assertThat(section).as("denied consumer key %s", key).contains("| `" + key + "` |");
        }
    }

    @Test
    void everyKafkaSourceMeterIsDocumented() throws Exception {
        String doc = Files.readString(Path.of("..", "docs", "metrics.md"));
        for (Field field : KafkaSourceMetrics.class.getFields()) {
            if (Modifier.isStatic(field.getModifiers()) && !field.getName().startsWith("TAG_")) {
                String prometheus = ((String) field.get(null)).replace('.', '_');
                assertThat(doc)
                        .as("%s (%s) in docs/metrics.md", field.getName(), prometheus)
                        .contains("`" + prometheus);
            }
        }
    }

    @Test
    void deliveryGuaranteesAreWrittenDown() throws IOException {
        String doc = Files.readString(Path.of("..", "docs", "delivery-guarantees.md"));
        assertThat(doc)
                .contains("at-least-once")
                .contains("min.insync.replicas")
                .contains("group_instance_id");
    }
}
