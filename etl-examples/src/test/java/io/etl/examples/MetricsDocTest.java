package io.etl.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.core.metrics.EtlMetrics;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/** docs/metrics.md must name every meter and tag of {@link EtlMetrics}, so a new meter cannot go undocumented. */
class MetricsDocTest {

    @Test
    void everyEtlMetricsConstantIsDocumented() throws Exception {
        String doc = Files.readString(DocSnippetsTest.ROOT.resolve("docs/metrics.md"));
        int checked = 0;
        for (Field f : EtlMetrics.class.getDeclaredFields()) {
            if (!Modifier.isStatic(f.getModifiers()) || f.getType() != String.class) {
                continue;
            }
            String value = (String) f.get(null);
            checked++;
            if (f.getName().startsWith("TAG_")) {
                assertThat(doc).as("tag %s", f.getName()).contains("`" + value + "`");
            } else {
                assertThat(doc).as("meter %s", f.getName()).contains("`" + value + "`");
                assertThat(doc).as("Prometheus form of %s", f.getName()).contains("`" + prometheusBase(value));
            }
        }
        assertThat(checked).isGreaterThan(10);
    }

    /** The Prometheus name without its type suffix: dots become underscores. */
    private static String prometheusBase(String dotted) {
        return dotted.replace('.', '_');
    }
}
