package io.etl.runtime.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;

/**
 * The YAML of {@link CopyPipelineFactory}'s pipeline {@code copy-<uid>}: the Kafka source {@code in} reads the
 * input in the group {@code group-<uid>}, the Kafka sink {@code out} writes the output. Each test adds the
 * keys it needs to a {@link Section}, as YAML lines relative to that section.
 */
record CopyYaml(String uid, String brokers, String input, String output, Map<Section, StringBuilder> added) {

    /** Where added lines go. */
    enum Section {
        /** The {@code pipeline} section. */
        PIPELINE("  "),
        /** The source's {@code kafka} section. */
        SOURCE("      "),
        /** The sink's {@code kafka} section. */
        SINK("      "),
        /** Top-level sections after {@code sinks} ({@code checkpoint}, {@code dead_letter}...). */
        TOP("");

        private final String indent;

        Section(String indent) {
            this.indent = indent;
        }
    }

    static CopyYaml of(String uid, String brokers, String input, String output) {
        Map<Section, StringBuilder> added = new EnumMap<>(Section.class);
        for (Section s : Section.values()) {
            added.put(s, new StringBuilder());
        }
        return new CopyYaml(uid, brokers, input, output, added);
    }

    /** Adds {@code lines} to {@code section}. */
    CopyYaml with(Section section, String lines) {
        lines.stripTrailing()
                .lines()
                .forEach(
                        l -> added.get(section).append(section.indent).append(l).append('\n'));
        return this;
    }

    String render() {
        return "pipeline:\n  name: copy-" + uid + "\n" + added.get(Section.PIPELINE)
                + "source:\n  in:\n    kafka:\n"
                + "      brokers: \"" + brokers + "\"\n"
                + "      topics: [" + input + "]\n"
                + "      group_id: group-" + uid + "\n" + added.get(Section.SOURCE)
                + "sinks:\n  out:\n    kafka:\n"
                + "      brokers: \"" + brokers + "\"\n"
                + "      topic: " + output + "\n" + added.get(Section.SINK)
                + added.get(Section.TOP);
    }

    /** Writes {@code <uid>.yaml} in {@code dir}. */
    Path write(Path dir) {
        try {
            return Files.writeString(dir.resolve(uid + ".yaml"), render());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
