package io.etl.core.internal.config;

import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import io.etl.core.error.ConfigException;
import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.events.Event;
import org.yaml.snakeyaml.events.ScalarEvent;

/**
 * Builds the tree of one YAML document from a parser, resolving what Jackson's YAML parser leaves as text:
 * an alias ({@code *name}) becomes a copy of the node its anchor ({@code &name}) marks, and a merge key
 * ({@code <<: *name}, or a list of aliases) adds the keys of those mappings that the mapping does not set itself,
 * the first listed winning, as in YAML 1.1. A file can then share, say, one security section between sinks.
 */
final class YamlTreeBuilder {

    /** Nodes the aliases of one file may copy in all: far above any real file, far below a billion laughs. */
    static final long MAX_ALIAS_NODES = 100_000;

    private static final String MERGE_KEY = "<<";

    private final YAMLParser parser;
    private final ObjectMapper mapper;
    private final String yaml;
    private final String source;
    private final Map<String, JsonNode> anchors = new HashMap<>();
    private Map<String, AnchoredScalar> scalarAnchors;
    private long aliasNodes;

    private YamlTreeBuilder(YAMLParser parser, ObjectMapper mapper, String yaml, String source) {
        this.parser = parser;
        this.mapper = mapper;
        this.yaml = yaml;
        this.source = source;
    }

    /** A scalar with an anchor, its value as Jackson would read it, and the line of the anchor. */
    private record AnchoredScalar(JsonNode value, int line) {}

    /**
     * The document the parser is at: its current token is the document's first, or null for an empty stream.
     *
     * @return the tree, or null when there is no document
     * @throws ConfigException for an alias without an anchor before it, a merge of something not a mapping, or
     *     aliases that expand to too many nodes
     */
    static JsonNode document(YAMLParser parser, ObjectMapper mapper, String yaml, String source) throws IOException {
        if (parser.currentToken() == null) {
            return null;
        }
        return new YamlTreeBuilder(parser, mapper, yaml, source).value();
    }

    private JsonNode value() throws IOException {
        if (parser.isCurrentAlias()) {
            return alias(parser.getText());
        }
        String anchor = parser.getObjectId();
        JsonNode node = switch (parser.currentToken()) {
            case START_OBJECT -> mapping();
            case START_ARRAY -> sequence();
            default -> mapper.readTree(parser);
        };
        if (anchor != null) {
            anchors.put(anchor, node);
        }
        return node;
    }

    private JsonNode alias(String name) {
        JsonNode target = anchors.get(name);
        if (target == null) {
            AnchoredScalar scalar = scalarAnchors().get(name);
            target = scalar != null && scalar.line() <= line() ? scalar.value() : null;
        }
        if (target == null) {
            throw ConfigException.of(
                    source, "YAML alias *" + name + " at line " + line() + " has no anchor &" + name + " before it");
        }
        aliasNodes += size(target);
        if (aliasNodes > MAX_ALIAS_NODES) {
            throw ConfigException.of(
                    source, "YAML aliases expand to more than " + MAX_ALIAS_NODES + " values (at line " + line() + ")");
        }
        return target.deepCopy();
    }

    private ObjectNode mapping() throws IOException {
        ObjectNode mapping = JsonNodeFactory.instance.objectNode();
        List<ObjectNode> merged = new ArrayList<>();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String key = parser.currentName();
            int keyLine = line();
            parser.nextToken();
            JsonNode value = value();
            if (MERGE_KEY.equals(key)) {
                merged.addAll(mergedMappings(value, keyLine));
            } else {
                mapping.set(key, value);
            }
        }
        for (ObjectNode from : merged) {
            for (Iterator<Map.Entry<String, JsonNode>> it = from.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                if (!mapping.has(field.getKey())) {
                    mapping.set(field.getKey(), field.getValue());
                }
            }
        }
        return mapping;
    }

    private List<ObjectNode> mergedMappings(JsonNode value, int line) {
        List<ObjectNode> mappings = new ArrayList<>();
        if (value instanceof ObjectNode one) {
            mappings.add(one);
        } else if (value instanceof ArrayNode list) {
            for (JsonNode element : list) {
                if (!(element instanceof ObjectNode mapping)) {
                    throw notAMapping(line);
                }
                mappings.add(mapping);
            }
        } else {
            throw notAMapping(line);
        }
        return mappings;
    }

    private ConfigException notAMapping(int line) {
        return ConfigException.of(
                source,
                "the YAML merge key << at line " + line
                        + " takes a mapping or a list of mappings, such as <<: *defaults");
    }

    private ArrayNode sequence() throws IOException {
        ArrayNode sequence = JsonNodeFactory.instance.arrayNode();
        while (parser.nextToken() != JsonToken.END_ARRAY) {
            sequence.add(value());
        }
        return sequence;
    }

    /**
     * The anchored scalars of the file. Jackson's parser reports the anchor of a mapping or a list but not of a
     * scalar value, so they are read from the YAML events themselves, once, when an alias needs one.
     */
    private Map<String, AnchoredScalar> scalarAnchors() {
        if (scalarAnchors == null) {
            scalarAnchors = new HashMap<>();
            try {
                for (Event event : new Yaml(new LoaderOptions()).parse(new StringReader(yaml))) {
                    if (event instanceof ScalarEvent scalar && scalar.getAnchor() != null) {
                        scalarAnchors.put(
                                scalar.getAnchor(),
                                new AnchoredScalar(
                                        scalarValue(scalar),
                                        scalar.getStartMark().getLine() + 1));
                    }
                }
            } catch (RuntimeException malformedLater) {
                // the parser reports it, with its line, when it gets there
            }
        }
        return scalarAnchors;
    }

    /** A plain scalar typed as Jackson types it (a number, a boolean, null, text); a quoted one as text. */
    private JsonNode scalarValue(ScalarEvent scalar) {
        if (scalar.getScalarStyle() != DumperOptions.ScalarStyle.PLAIN) {
            return TextNode.valueOf(scalar.getValue());
        }
        try {
            JsonNode typed = mapper.readTree(scalar.getValue());
            return typed != null && typed.isValueNode() ? typed : TextNode.valueOf(scalar.getValue());
        } catch (IOException e) {
            return TextNode.valueOf(scalar.getValue());
        }
    }

    private int line() {
        return parser.currentTokenLocation().getLineNr();
    }

    private static long size(JsonNode node) {
        long n = 1;
        for (JsonNode child : node) {
            n += size(child);
        }
        return n;
    }
}
