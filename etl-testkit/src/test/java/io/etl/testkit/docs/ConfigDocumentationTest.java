package io.etl.testkit.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigDocumentationTest {

    record WidgetConfig(
            Integer maxWidgets,
            Duration spinTimeout,
            @JsonProperty("colour") String color) {}

    @TempDir
    Path dir;

    private Path docs(String markdown) throws Exception {
        return Files.writeString(dir.resolve("configuration.md"), markdown);
    }

    @Test
    void reportsRecordComponentsWithoutATableRowInTheirSection() throws Exception {
        Path md = docs("""
                ## Widgets
                ### `WidgetConfig` — `widgets`
                | key | type | default | meaning |
                |---|---|---|---|
                | `max_widgets` | integer | `3` | how many |

                ### `OtherConfig` — `other`
                | spin_timeout | duration | `1s` | documented for another record |
                """);

        assertThat(ConfigDocumentation.undocumentedKeys(md, WidgetConfig.class))
                .containsExactly("spin_timeout", "colour");
    }

    @Test
    void fullyDocumentedRecordHasNoUndocumentedKeys() throws Exception {
        Path md = docs("""
                ### `WidgetConfig`
                | key | type |
                |---|---|
                | max_widgets | integer |
                | spin_timeout | duration |
                | colour | string |
                """);

        assertThat(ConfigDocumentation.undocumentedKeys(md, WidgetConfig.class)).isEmpty();
    }

    @Test
    void recordWithoutAHeadingIsAnError() throws Exception {
        Path md = docs("# Nothing here\n| max_widgets | integer |\n");

        assertThatThrownBy(() -> ConfigDocumentation.undocumentedKeys(md, WidgetConfig.class))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("`WidgetConfig`");
    }
}
