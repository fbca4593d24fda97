package io.etl.testkit.docs;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Checks that {@code docs/configuration.md} documents every key of a configuration record, so a test
 * fails when someone adds a key and forgets the docs.
 *
 * <pre>{@code
 * assertThat(ConfigDocumentation.undocumentedKeys(Path.of("..", "docs", "configuration.md"), KafkaSinkConfig.class))
 *         .isEmpty();
 * }</pre>
 *
 * <p>The record's section is the one whose heading line ({@code #...}) mentions its simple name in
 * backticks, for example {@code ### `BatchConfig` — `sinks.<name>.<connector>.batch`}; it runs until the
 * next heading of the same or a higher level. A key is documented when a table row of that section starts
 * with it: {@code | max_records | ...} or {@code | `max_records` | ...}.
 */
public final class ConfigDocumentation {

    private static final PropertyNamingStrategies.NamingBase SNAKE_CASE =
            (PropertyNamingStrategies.NamingBase) PropertyNamingStrategies.SNAKE_CASE;

    private ConfigDocumentation() {}

    /**
     * The keys of {@code recordType} (its components in snake_case, or their {@code @JsonProperty} names)
     * that the record's section of {@code configurationMd} has no table row for, in declaration order.
     *
     * @throws IllegalArgumentException when no heading mentions the record
     * @throws UncheckedIOException     when the file cannot be read
     */
    public static List<String> undocumentedKeys(Path configurationMd, Class<? extends Record> recordType) {
        List<String> lines;
        try {
            lines = Files.readAllLines(configurationMd);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + configurationMd, e);
        }
        Set<String> documented = documentedKeys(lines, recordType.getSimpleName(), configurationMd);
        List<String> missing = new ArrayList<>();
        for (String key : keys(recordType)) {
            if (!documented.contains(key)) {
                missing.add(key);
            }
        }
        return missing;
    }

    /** The YAML keys of a record: component names in snake_case, or their {@code @JsonProperty} names. */
    static List<String> keys(Class<? extends Record> recordType) {
        List<String> keys = new ArrayList<>();
        for (RecordComponent component : recordType.getRecordComponents()) {
            JsonProperty property = component.getAccessor().getAnnotation(JsonProperty.class);
            keys.add(
                    property != null && !property.value().isEmpty()
                            ? property.value()
                            : SNAKE_CASE.translate(component.getName()));
        }
        return keys;
    }

    private static Set<String> documentedKeys(List<String> lines, String simpleName, Path file) {
        String mention = "`" + simpleName + "`";
        int start = -1;
        int level = 0;
        for (int i = 0; i < lines.size(); i++) {
            if (headingLevel(lines.get(i)) > 0 && lines.get(i).contains(mention)) {
                start = i;
                level = headingLevel(lines.get(i));
                break;
            }
        }
        if (start < 0) {
            throw new IllegalArgumentException(file + " has no heading mentioning " + mention);
        }
        Set<String> keys = new HashSet<>();
        for (int i = start + 1; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            int lineLevel = headingLevel(line);
            if (lineLevel > 0 && lineLevel <= level) {
                break;
            }
            if (line.startsWith("|")) {
                String[] cells = line.split("\\|");
                if (cells.length > 1) {
                    keys.add(cells[1].strip().replace("`", ""));
                }
            }
        }
        return keys;
    }

    private static int headingLevel(String line) {
        int level = 0;
        while (level < line.length() && line.charAt(level) == '#') {
            level++;
        }
        return level > 0 && level < line.length() && line.charAt(level) == ' ' ? level : 0;
    }
}
