package io.etl.core.internal.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import io.etl.core.error.ConfigException;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * Reads YAML text into a tree, with anchors, aliases and merge keys resolved ({@link YamlTreeBuilder}). Malformed
 * YAML (including a key given twice) is a {@link ConfigException} with line and column; its message leaves out the
 * offending line, which may hold a secret. A file holds one document; its top-level {@code x-} keys are dropped.
 */
final class YamlTrees {

    private static final YAMLMapper YAML = YAMLMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    /** Top-level keys with this prefix are not read: they hold blocks that anchors share. */
    static final String EXTENSION_PREFIX = "x-";

    private YamlTrees() {}

    /**
     * The tree of {@code yaml}; a {@link MissingNode} when it has no content.
     *
     * @param source the file name for problems, or empty for text
     */
    static JsonNode read(String yaml, String source) {
        try (YAMLParser parser = (YAMLParser) YAML.createParser(yaml)) {
            parser.nextToken();
            JsonNode root = YamlTreeBuilder.document(parser, YAML, yaml, source);
            JsonToken next = parser.nextToken();
            if (next != null && next != JsonToken.VALUE_NULL) {
                // a later document would be ignored without a word: one file, one pipeline, one document
                throw ConfigException.of(
                        source,
                        "a second YAML document starts at line "
                                + parser.currentTokenLocation().getLineNr()
                                + " and would be ignored; a pipeline file holds one document: remove the '---'"
                                + " and merge the sections");
            }
            if (root instanceof ObjectNode sections) {
                // x-anything holds blocks that anchors share, as in a Compose file: its aliases were copied
                sections.properties().removeIf(section -> section.getKey().startsWith(EXTENSION_PREFIX));
            }
            return root == null || root.isNull() ? MissingNode.getInstance() : root;
        } catch (JsonProcessingException e) {
            throw ConfigException.of(source, "malformed YAML " + where(e) + ": " + reason(e));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String where(JsonProcessingException e) {
        MarkedYAMLException marked = marked(e);
        if (marked != null && marked.getProblemMark() != null) {
            Mark mark = marked.getProblemMark();
            return "at line " + (mark.getLine() + 1) + ", column " + (mark.getColumn() + 1);
        }
        JsonLocation location = e.getLocation();
        return location == null ? "" : "at line " + location.getLineNr() + ", column " + location.getColumnNr();
    }

    private static String reason(JsonProcessingException e) {
        MarkedYAMLException marked = marked(e);
        if (marked != null && marked.getProblem() != null) {
            return marked.getContext() == null ? marked.getProblem() : marked.getContext() + ", " + marked.getProblem();
        }
        String message = e.getOriginalMessage();
        return message == null
                ? e.getClass().getSimpleName()
                : message.lines().findFirst().orElse(message);
    }

    private static MarkedYAMLException marked(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof MarkedYAMLException marked) {
                return marked;
            }
        }
        return null;
    }
}
