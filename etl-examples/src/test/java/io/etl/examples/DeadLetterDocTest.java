package io.etl.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.core.config.PipelineConfig;
import io.etl.core.error.DeadLetter;
import io.etl.core.error.ErrorPolicy;
import io.etl.kafka.sink.KafkaSinkConfig;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The dead-letter section of docs/errors.md: its YAML loads as shown, and its header table is complete. */
class DeadLetterDocTest {

    private static final Path ERRORS = DocSnippetsTest.ROOT.resolve("docs/errors.md");

    private static String section() throws IOException {
        String doc = Files.readString(ERRORS);
        int start = doc.indexOf("## Dead-letter topic");
        assertThat(start).as("docs/errors.md has a Dead-letter topic section").isNotNegative();
        int end = doc.indexOf("\n## ", start + 1);
        return doc.substring(start, end < 0 ? doc.length() : end);
    }

    @Test
    void theDocumentedYamlLoadsWithADeadLetterTopicAndDeadLetterPolicies() throws IOException {
        String section = section();
        int open = section.indexOf("```yaml\n");
        String yaml = section.substring(open + 8, section.indexOf("```", open + 8));

        PipelineConfig config = PipelineConfig.parse(yaml, Map.of("KAFKA_BROKERS", "localhost:9092")::get);

        assertThat(config.deadLetter())
                .hasValueSatisfying(s ->
                        assertThat(s.connector(KafkaSinkConfig.class).topic()).isEqualTo("orders-dlt"));
        assertThat(config.pipeline().onError()).isEqualTo(ErrorPolicy.DEAD_LETTER);
        assertThat(config.source("orders").onError()).isEqualTo(ErrorPolicy.DEAD_LETTER);
        assertThat(config.sink("out").pool().onError()).isEqualTo(ErrorPolicy.DEAD_LETTER);
    }

    @Test
    void everyDeadLetterHeaderIsDocumented() throws IOException, IllegalAccessException {
        String section = section();
        List<String> missing = new ArrayList<>();
        for (Field f : DeadLetter.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getName().endsWith("_HEADER")) {
                String header = (String) f.get(null);
                if (!section.contains("| `" + header + "` |")) {
                    missing.add(header);
                }
            }
        }
        assertThat(missing)
                .as("etl.dlq.* headers without a row in docs/errors.md")
                .isEmpty();
    }
}
