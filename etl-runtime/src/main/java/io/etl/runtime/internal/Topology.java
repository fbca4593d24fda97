package io.etl.runtime.internal;

import io.etl.core.Pipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.core.error.ErrorPolicy;
import io.etl.core.internal.dsl.BranchSpec;
import io.etl.core.internal.dsl.OperatorSpec;
import io.etl.core.internal.dsl.PipelineDefinition;
import io.etl.core.internal.dsl.TerminalSpec;
import io.etl.core.sink.Sink;
import io.etl.kafka.common.internal.ClusterUse;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A pipeline's topology, read from its definition and configuration without any I/O: the source, each operator with
 * its error policy, the split and its branches, the sinks with their topics, and where dead letters go. Rendered as
 * text ({@link #text()}, for a terminal or an issue) or as a Mermaid flowchart ({@link #mermaid()}, for docs that
 * render it).
 *
 * <pre>{@code
 * Topology topology = Topology.of(factory.create(config).build(), config);
 * System.out.println(topology.text());
 * }</pre>
 */
public final class Topology {

    private final PipelineDefinition definition;
    private final PipelineConfig config;
    private final PipelineUses uses;

    private Topology(PipelineDefinition definition, PipelineConfig config, PipelineUses uses) {
        this.definition = definition;
        this.config = config;
        this.uses = uses;
    }

    /**
     * The topology of {@code pipeline}, which must be built, as it runs with {@code config}.
     *
     * @throws IllegalArgumentException for a pipeline that was not built by the DSL
     */
    public static Topology of(Pipeline pipeline, PipelineConfig config) {
        PipelineUses uses = PipelineUses.of(pipeline, config);
        return new Topology((PipelineDefinition) pipeline, config, uses);
    }

    /** The name the pipeline runs under: {@code pipeline.name} when set, else the definition's. */
    public String name() {
        return config.pipeline().name() != null ? config.pipeline().name() : definition.name();
    }

    // ---- text ------------------------------------------------------------------------------------------------

    /** One line per stage, indented as the records flow; branches under their split. */
    public String text() {
        StringBuilder out = new StringBuilder();
        out.append("pipeline '").append(name()).append("'\n");
        String source = definition.source().name();
        out.append("  source '")
                .append(source)
                .append("'")
                .append(detail("source." + source + "."))
                .append(policy(definition.source().errorPolicy(), null))
                .append('\n');
        for (OperatorSpec op : definition.operators()) {
            out.append("  -> ")
                    .append(kind(op))
                    .append(" '")
                    .append(op.name())
                    .append("'")
                    .append(policy(op.ownPolicyUnder(config.pipeline()), "pipeline.on_error"))
                    .append('\n');
        }
        TerminalSpec terminal = definition.terminal();
        if (terminal.isSplit()) {
            out.append("  -> split '")
                    .append(terminal.splitName())
                    .append("', ")
                    .append(
                            terminal.isKeyed()
                                    ? "branch by key"
                                    : terminal.allMatching() ? "every matching branch" : "first matching branch")
                    .append(policy(null, "pipeline.on_error"))
                    .append('\n');
            for (BranchSpec branch : terminal.branches()) {
                out.append("       branch '").append(branch.name()).append('\'');
                if (!branch.keys().isEmpty()) {
                    out.append(" for keys ").append(branch.keys());
                }
                out.append(" -> ").append(sinkLine(branch.sink())).append('\n');
            }
            out.append("       otherwise -> ")
                    .append(terminal.otherwise() != null ? sinkLine(terminal.otherwise()) : "dropped")
                    .append('\n');
        } else {
            out.append("  -> ").append(sinkLine(terminal.sink())).append('\n');
        }
        out.append("  dead letters").append(deadLetterLine()).append('\n');
        return out.toString();
    }

    private String sinkLine(Sink<Object, ?> sink) {
        return "sink '" + sink.name() + "'" + detail("sinks." + sink.name() + ".") + policy(sink.errorPolicy(), null);
    }

    private String deadLetterLine() {
        List<String> stages = deadLetterStages();
        if (stages.isEmpty()) {
            return ": none (no stage has policy dead_letter)";
        }
        String from = "  (from " + String.join(", ", stages) + ")";
        if (definition.deadLetter() != null) {
            return " -> a handler in code" + from;
        }
        if (config.deadLetter().isPresent()) {
            return " -> sink '" + PipelineConfig.DEAD_LETTER + "'" + detail(PipelineConfig.DEAD_LETTER + ".") + from;
        }
        return " -> nowhere: the pipeline cannot start without a dead_letter section" + from;
    }

    /** {@code  kafka: topic x} or {@code  kafka: topics a, b, group g}, from the connector's cluster uses. */
    private String detail(String pathPrefix) {
        List<ClusterUse> matching = new ArrayList<>();
        for (ClusterUse use : uses.uses()) {
            if (use.path().startsWith(pathPrefix)) {
                matching.add(use);
            }
        }
        if (matching.isEmpty()) {
            return "";
        }
        String path = matching.get(0).path();
        String connector = path.substring(path.lastIndexOf('.') + 1);
        Set<String> topics = new LinkedHashSet<>();
        boolean pattern = false;
        String group = null;
        boolean created = false;
        for (ClusterUse use : matching) {
            if (use.topic() == null) {
                pattern = true;
            } else {
                topics.add(use.topic());
            }
            group = use.groupId() != null ? use.groupId() : group;
            created |= use.createdAtStart();
        }
        StringBuilder text = new StringBuilder("  ").append(connector).append(": ");
        if (pattern) {
            text.append("topics by pattern");
        } else {
            text.append(topics.size() == 1 ? "topic " : "topics ").append(String.join(", ", topics));
        }
        if (created) {
            text.append(" (created at start)");
        }
        if (group != null) {
            text.append(", group ").append(group);
        }
        return text.toString();
    }

    /** {@code  (on_error: fail)}, or {@code  (on_error: fail, from pipeline.on_error)} when inherited. */
    private String policy(ErrorPolicy own, String inheritedFrom) {
        if (own == null && inheritedFrom == null) {
            return "";
        }
        ErrorPolicy effective = own != null ? own : config.pipeline().onError();
        return "  (on_error: " + name(effective) + (own == null ? ", from " + inheritedFrom : "") + ")";
    }

    /** The stages whose policy sends records to the dead letters, as the text names them. */
    private List<String> deadLetterStages() {
        List<String> stages = new ArrayList<>();
        ErrorPolicy operatorDefault = config.pipeline().onError();
        if (definition.source().errorPolicy() == ErrorPolicy.DEAD_LETTER) {
            stages.add("source '" + definition.source().name() + "'");
        }
        for (OperatorSpec op : definition.operators()) {
            if (effective(op.ownPolicyUnder(config.pipeline()), operatorDefault) == ErrorPolicy.DEAD_LETTER) {
                stages.add(kind(op) + " '" + op.name() + "'");
            }
        }
        if (definition.terminal().isSplit() && operatorDefault == ErrorPolicy.DEAD_LETTER) {
            stages.add("split '" + definition.terminal().splitName() + "'");
        }
        for (Sink<Object, ?> sink : definition.sinks()) {
            if (sink.errorPolicy() == ErrorPolicy.DEAD_LETTER) {
                stages.add("sink '" + sink.name() + "'");
            }
        }
        return stages;
    }

    // ---- Mermaid ---------------------------------------------------------------------------------------------

    /** A Mermaid {@code flowchart LR}: a node per stage and sink, dotted edges to the dead letters. */
    public String mermaid() {
        Mermaid m = new Mermaid();
        String source = definition.source().name();
        String previous = m.node("[/", "source " + source + label(detail("source." + source + ".")), "/]");
        String sourceNode = previous;
        List<String> toDeadLetters = new ArrayList<>();
        if (definition.source().errorPolicy() == ErrorPolicy.DEAD_LETTER) {
            toDeadLetters.add(sourceNode);
        }
        for (OperatorSpec op : definition.operators()) {
            String node = m.node("[", kind(op) + " " + op.name(), "]");
            m.edge(previous, node, null);
            if (effective(
                            op.ownPolicyUnder(config.pipeline()),
                            config.pipeline().onError())
                    == ErrorPolicy.DEAD_LETTER) {
                toDeadLetters.add(node);
            }
            previous = node;
        }
        Map<Sink<Object, ?>, String> sinkNodes = new IdentityHashMap<>();
        TerminalSpec terminal = definition.terminal();
        if (terminal.isSplit()) {
            String split = m.node("{", "split " + terminal.splitName(), "}");
            m.edge(previous, split, null);
            if (config.pipeline().onError() == ErrorPolicy.DEAD_LETTER) {
                toDeadLetters.add(split);
            }
            for (BranchSpec branch : terminal.branches()) {
                m.edge(split, sinkNode(m, sinkNodes, branch.sink()), branch.name());
            }
            if (terminal.otherwise() != null) {
                m.edge(split, sinkNode(m, sinkNodes, terminal.otherwise()), "otherwise");
            } else {
                m.edge(split, m.node("((", "dropped", "))"), "otherwise");
            }
        } else {
            m.edge(previous, sinkNode(m, sinkNodes, terminal.sink()), null);
        }
        for (Sink<Object, ?> sink : definition.sinks()) {
            if (sink.errorPolicy() == ErrorPolicy.DEAD_LETTER) {
                toDeadLetters.add(sinkNodes.get(sink));
            }
        }
        if (!toDeadLetters.isEmpty()) {
            String where = definition.deadLetter() != null
                    ? "<br/>a handler in code"
                    : label(detail(PipelineConfig.DEAD_LETTER + "."));
            String deadLetters = m.node("[(", "dead letters" + where, ")]");
            for (String from : toDeadLetters) {
                m.deadLetterEdge(from, deadLetters);
            }
        }
        return m.toString();
    }

    private String sinkNode(Mermaid m, Map<Sink<Object, ?>, String> nodes, Sink<Object, ?> sink) {
        return nodes.computeIfAbsent(
                sink, s -> m.node("[(", "sink " + s.name() + label(detail("sinks." + s.name() + ".")), ")]"));
    }

    /** A detail as a second line of a node's label. */
    private static String label(String detail) {
        return detail.isEmpty() ? "" : "<br/>" + detail.strip();
    }

    /** Nodes and edges, numbered in the order they are added so that the output is stable. */
    private static final class Mermaid {
        private final StringBuilder nodes = new StringBuilder();
        private final StringBuilder edges = new StringBuilder();
        private int count;

        String node(String open, String text, String close) {
            String id = "n" + count++;
            nodes.append("    ")
                    .append(id)
                    .append(open)
                    .append('"')
                    .append(escape(text))
                    .append('"')
                    .append(close)
                    .append('\n');
            return id;
        }

        void edge(String from, String to, String label) {
            edges.append("    ").append(from).append(" -->");
            if (label != null) {
                edges.append('|').append(escape(label)).append('|');
            }
            edges.append(' ').append(to).append('\n');
        }

        void deadLetterEdge(String from, String to) {
            edges.append("    ")
                    .append(from)
                    .append(" -.->|dead_letter| ")
                    .append(to)
                    .append('\n');
        }

        /** Mermaid's entity codes for the characters that would end a quoted label. */
        private static String escape(String text) {
            return text.replace("\"", "#quot;").replace("|", "#124;");
        }

        @Override
        public String toString() {
            return "flowchart LR\n" + nodes + edges;
        }
    }

    // ---- names -----------------------------------------------------------------------------------------------

    private static ErrorPolicy effective(ErrorPolicy own, ErrorPolicy fallback) {
        return own != null ? own : fallback;
    }

    private static String kind(OperatorSpec op) {
        return switch (op.kind()) {
            case FILTER -> "filter";
            case MAP -> "map";
            case FLAT_MAP -> "flatMap";
            case PEEK -> "peek";
            case PROCESS -> "process";
            case MAP_ASYNC -> "mapAsync";
            case FLAT_MAP_ASYNC -> "flatMapAsync";
            case FILTER_ASYNC -> "filterAsync";
            case MAP_CONCURRENT -> "mapConcurrent";
        };
    }

    private static String name(ErrorPolicy policy) {
        return policy.name().toLowerCase(Locale.ROOT);
    }
}
