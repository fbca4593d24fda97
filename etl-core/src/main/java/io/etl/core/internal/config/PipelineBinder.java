package io.etl.core.internal.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.etl.core.config.CheckpointConfig;
import io.etl.core.config.ConnectorConfigType;
import io.etl.core.config.ConnectorConfigType.Role;
import io.etl.core.config.DeliveryGuarantee;
import io.etl.core.config.MetricsConfig;
import io.etl.core.config.PipelineConfig;
import io.etl.core.config.PipelineSection;
import io.etl.core.config.RetrySection;
import io.etl.core.config.RetryTopicsConfig;
import io.etl.core.config.SinkPoolConfig;
import io.etl.core.config.SinkSection;
import io.etl.core.config.SourceSection;
import io.etl.core.error.ConfigProblem;
import io.etl.core.error.ErrorPolicy;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Binds the top level of an interpolated tree: each core section to its record, and each {@code source}
 * and {@code sinks} entry to its connector's record (through {@link ConnectorConfigType}), the core-owned
 * keys of those entries to {@link SinkPoolConfig} and {@link SourceSection#onError()}.
 */
final class PipelineBinder {

    static final List<String> SECTIONS = List.of(
            "pipeline", "source", "sinks", PipelineConfig.DEAD_LETTER, RetrySection.NAME, "checkpoint", "metrics");
    /** The keys of the {@code retry} section the core binds; the one other key is its connector's. */
    static final Set<String> RETRY_KEYS = Set.of("topics", "then");

    static final String SOURCE_ON_ERROR = "on_error";

    private static final Logger LOG = LoggerFactory.getLogger(PipelineBinder.class);

    private final ProblemCollector problems;
    private final SectionBinder binder;
    private final ConnectorRegistry connectors;

    PipelineBinder(ProblemCollector problems, SectionBinder binder, ConnectorRegistry connectors) {
        this.problems = problems;
        this.binder = binder;
        this.connectors = connectors;
    }

    /** The bound configuration; problems, if any, are in the collector. */
    PipelineConfig bind(JsonNode root) {
        if (root == null || root.isMissingNode() || root.isNull()) {
            return PipelineConfig.defaults();
        }
        if (!root.isObject()) {
            problems.add("", "expected a mapping with the sections " + String.join(", ", SECTIONS));
            return null;
        }
        PipelineSection pipeline = null;
        Map<String, SourceSection> sources = new LinkedHashMap<>();
        Map<String, SinkSection> sinks = new LinkedHashMap<>();
        CheckpointConfig checkpoint = null;
        MetricsConfig metrics = null;
        SinkSection deadLetter = null;
        RetrySection retry = null;
        for (Map.Entry<String, JsonNode> section : root.properties()) {
            String key = section.getKey();
            JsonNode node = section.getValue();
            switch (key) {
                case "pipeline" -> pipeline = binder.bind(node, PipelineSection.class, key);
                case "checkpoint" -> checkpoint = binder.bind(node, CheckpointConfig.class, key);
                case "metrics" -> metrics = binder.bind(node, MetricsConfig.class, key);
                case "source" ->
                    entries(node, key).forEach((name, entry) -> {
                        SourceSection source = source(name, entry);
                        if (source != null) {
                            sources.put(name, source);
                        }
                    });
                case "sinks" ->
                    entries(node, key).forEach((name, entry) -> {
                        SinkSection sink = sink(name, entry);
                        if (sink != null) {
                            sinks.put(name, sink);
                        }
                    });
                case PipelineConfig.DEAD_LETTER -> deadLetter = deadLetter(node);
                case RetrySection.NAME -> retry = retry(node);
                default -> problems.add(key, Suggestions.unknownKey(key, SECTIONS));
            }
        }
        PipelineConfig config = new PipelineConfig(
                pipeline,
                sources,
                sinks,
                checkpoint,
                metrics,
                Optional.ofNullable(deadLetter),
                Optional.ofNullable(retry));
        if (config.pipeline().delivery() == DeliveryGuarantee.EXACTLY_ONCE
                && !root.path("checkpoint").has("interval")) {
            // one transaction per checkpoint: the at-least-once default would commit a transaction every few ms
            config = config.withCheckpoint(CheckpointConfig.from(config.checkpoint())
                    .interval(CheckpointConfig.DEFAULT_EXACTLY_ONCE_INTERVAL)
                    .build());
        }
        problems.addAll(PipelineRules.problems(config, problems::touches));
        return config;
    }

    /**
     * The {@code dead_letter} section: a sink entry of its own, whose connector must be able to write dead
     * letters; {@code on_error} has no meaning there (a dead letter that cannot be written fails the pipeline).
     */
    private SinkSection deadLetter(JsonNode entry) {
        String path = PipelineConfig.DEAD_LETTER;
        Connector connector = connector(Role.SINK, path, entry);
        if (connector == null) {
            return null;
        }
        ObjectNode core = connector.take(SinkPoolConfig.KEYS);
        if (core.has(SOURCE_ON_ERROR)) {
            problems.add(
                    connector.path() + "." + SOURCE_ON_ERROR,
                    "has no meaning for the dead-letter sink:"
                            + " a dead letter that cannot be written fails the pipeline");
            core.remove(SOURCE_ON_ERROR);
        }
        SinkPoolConfig pool = binder.bind(core, SinkPoolConfig.class, connector.path());
        Object config = bindConnector(connector, SinkPoolConfig.KEYS);
        if (config == null) {
            return null;
        }
        SinkSection section =
                new SinkSection(PipelineConfig.DEAD_LETTER, connector.type().key(), config, pool);
        try {
            if (connector.type().deadLetterSink(section).isEmpty()) {
                problems.add(
                        connector.path(), "the " + connector.type().key() + " connector cannot write dead letters");
            }
        } catch (RuntimeException e) {
            LOG.debug("dead-letter sink of {} failed", connector.path(), e);
            problems.add(
                    connector.path(),
                    "the " + connector.type().key() + " connector refused this dead-letter section: " + e.getMessage());
        }
        return section;
    }

    /**
     * The {@code retry} section: the levels ({@code topics}, {@code then}) and one connector key, shaped like the
     * {@code dead_letter} section, whose connector must be able to write retry topics.
     */
    private RetrySection retry(JsonNode node) {
        String path = RetrySection.NAME;
        if (node == null || !node.isObject()) {
            problems.add(path, "expected a mapping with topics, then and one connector key");
            return null;
        }
        ObjectNode entry = ((ObjectNode) node).deepCopy();
        ObjectNode core = JsonNodeFactory.instance.objectNode();
        for (String key : RETRY_KEYS) {
            if (entry.has(key)) {
                core.set(key, entry.remove(key));
            }
        }
        int before = problems.size();
        RetryTopicsConfig levels = binder.bind(core, RetryTopicsConfig.class, path);
        if (levels != null && problems.size() == before) {
            for (ConfigProblem p : RetryTopicsConfig.rules(levels)) {
                problems.add(path + "." + p.path(), p.message());
            }
        }
        Connector connector = connector(Role.SINK, path, entry);
        if (connector == null) {
            return null;
        }
        ObjectNode pool = connector.take(SinkPoolConfig.KEYS);
        if (pool.has(SOURCE_ON_ERROR)) {
            problems.add(
                    connector.path() + "." + SOURCE_ON_ERROR,
                    "has no meaning for the retry sink: a record that cannot be written to its retry topic gets the"
                            + " retry section's then policy");
            pool.remove(SOURCE_ON_ERROR);
        }
        SinkPoolConfig poolConfig = binder.bind(pool, SinkPoolConfig.class, connector.path());
        Object config = bindConnector(connector, SinkPoolConfig.KEYS);
        if (config == null || levels == null) {
            return null;
        }
        SinkSection writer = new SinkSection(RetrySection.NAME, connector.type().key(), config, poolConfig);
        try {
            if (connector.type().retrySink(writer).isEmpty()) {
                problems.add(
                        connector.path(), "the " + connector.type().key() + " connector cannot write retry topics");
            }
        } catch (RuntimeException e) {
            LOG.debug("retry sink of {} failed", connector.path(), e);
            problems.add(
                    connector.path(),
                    "the " + connector.type().key() + " connector refused this retry section: " + e.getMessage());
        }
        return new RetrySection(levels, writer);
    }

    private Map<String, JsonNode> entries(JsonNode node, String path) {
        Map<String, JsonNode> entries = new LinkedHashMap<>();
        if (node == null || node.isNull()) {
            return entries;
        }
        if (!node.isObject()) {
            problems.add(path, "expected a mapping of named entries");
            return entries;
        }
        node.properties().forEach(e -> entries.put(e.getKey(), e.getValue()));
        return entries;
    }

    private SourceSection source(String name, JsonNode entry) {
        String path = "source." + name;
        Connector connector = connector(Role.SOURCE, path, entry);
        if (connector == null) {
            return null;
        }
        ObjectNode core = connector.take(Set.of(SOURCE_ON_ERROR));
        SourceKeys keys = binder.bind(core, SourceKeys.class, connector.path());
        Object config = bindConnector(connector, Set.of(SOURCE_ON_ERROR));
        return new SourceSection(name, connector.type().key(), config, keys == null ? null : keys.onError());
    }

    private SinkSection sink(String name, JsonNode entry) {
        String path = "sinks." + name;
        Connector connector = connector(Role.SINK, path, entry);
        if (connector == null) {
            return null;
        }
        ObjectNode core = connector.take(SinkPoolConfig.KEYS);
        SinkPoolConfig pool = binder.bind(core, SinkPoolConfig.class, connector.path());
        Object config = bindConnector(connector, SinkPoolConfig.KEYS);
        return new SinkSection(name, connector.type().key(), config, pool);
    }

    /** The entry's single connector key and its body, or null after recording why not. */
    private Connector connector(Role role, String path, JsonNode entry) {
        List<String> known = connectors.keys(role);
        String expected =
                "exactly one connector key (known: " + (known.isEmpty() ? "none" : String.join(", ", known)) + ")";
        if (entry == null || entry.isNull() || (entry.isObject() && entry.isEmpty())) {
            problems.add(path, "expected " + expected);
            return null;
        }
        if (!entry.isObject()) {
            problems.add(path, "expected a mapping with " + expected);
            return null;
        }
        if (entry.size() > 1) {
            problems.add(
                    path,
                    "has " + entry.size() + " connector keys (" + String.join(", ", keysOf(entry)) + "); expected "
                            + expected);
            return null;
        }
        Map.Entry<String, JsonNode> only = entry.properties().iterator().next();
        String key = only.getKey();
        String connectorPath = path + "." + key;
        ConnectorConfigType<?> type = connectors.find(role, key).orElse(null);
        if (type == null) {
            problems.add(
                    connectorPath,
                    "unknown connector '" + key + "' (known: " + (known.isEmpty() ? "none" : String.join(", ", known))
                            + ")");
            return null;
        }
        JsonNode body = only.getValue();
        if (body == null || body.isNull()) {
            body = JsonNodeFactory.instance.objectNode();
        }
        if (!body.isObject()) {
            problems.add(connectorPath, "expected a mapping");
            return null;
        }
        return new Connector(type, connectorPath, ((ObjectNode) body).deepCopy());
    }

    private Object bindConnector(Connector connector, Set<String> coreKeys) {
        return bindAndCheck(connector.type(), connector.body(), connector.path(), coreKeys);
    }

    private <C> C bindAndCheck(ConnectorConfigType<C> type, ObjectNode body, String path, Set<String> coreKeys) {
        int before = problems.size();
        C config = binder.bind(body, type.type(), path, coreKeys);
        if (config == null) {
            return null;
        }
        try {
            List<ConfigProblem> found = type.check(config, path);
            if (found != null) {
                // a value the binding already rejected reads as missing to the check: say it once
                problems.addAll(
                        found.stream().filter(p -> !problems.touches(p.path())).toList());
            }
        } catch (RuntimeException e) {
            LOG.debug("check of {} failed", path, e);
            if (problems.size() == before) {
                problems.add(
                        path,
                        "the " + type.key() + " connector's check failed ("
                                + e.getClass().getSimpleName() + ")");
            }
        }
        return config;
    }

    private static List<String> keysOf(JsonNode object) {
        return object.properties().stream().map(Map.Entry::getKey).toList();
    }

    /** The {@code source.<name>.<connector>} keys the core owns. */
    record SourceKeys(ErrorPolicy onError) {}

    /** A connector entry: its type, path and body; {@link #take} removes core-owned keys from the body. */
    private record Connector(ConnectorConfigType<?> type, String path, ObjectNode body) {

        ObjectNode take(Set<String> keys) {
            ObjectNode taken = JsonNodeFactory.instance.objectNode();
            for (Map.Entry<String, JsonNode> field : body.properties()) {
                if (keys.contains(field.getKey())) {
                    taken.set(field.getKey(), field.getValue());
                }
            }
            body.remove(keysOf(taken));
            return taken;
        }
    }
}
