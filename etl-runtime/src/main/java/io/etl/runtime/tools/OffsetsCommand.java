package io.etl.runtime.tools;

import io.etl.core.config.PipelineConfig;
import io.etl.runtime.ExitCodes;
import io.etl.runtime.Main;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code offsets show|reset}: a pipeline's consumer group, by default the one of the YAML's source section, on the
 * topics it reads. {@code show} prints each partition's committed offset, end and lag; {@code reset} moves the
 * committed offsets to the earliest or latest record, a point in time, or by a number of records, and only says what
 * it would do unless {@code --execute}; it refuses while the group has live members (a running pipeline would
 * overwrite the offsets with its next commit).
 */
@Command(
        name = "offsets",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = "Shows or resets the committed offsets of a pipeline's consumer group.",
        subcommands = {OffsetsCommand.Show.class, OffsetsCommand.Reset.class},
        synopsisSubcommandLabel = "COMMAND")
public final class OffsetsCommand implements Runnable {

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command: show or reset");
    }

    /** The options naming the group and its topics, and what they resolve to. */
    static final class GroupOptions {
        @CommandLine.Mixin
        ClusterOptions cluster;

        @Option(
                names = {"-g", "--group"},
                paramLabel = "GROUP",
                description = "The consumer group. Default: group_id of the --config source section.")
        String group;

        @Option(
                names = {"-t", "--topic"},
                paramLabel = "TOPIC",
                description = "Only these topics (repeatable). Default: the source section's topics, else the"
                        + " topics the group has offsets for.")
        List<String> topics = new ArrayList<>();

        /** The group, its cluster and its partitions. */
        Target resolve() {
            PipelineConfig pipeline = cluster.pipeline();
            KafkaSection source = null;
            if (pipeline != null) {
                source = cluster.section(pipeline, null);
            }
            String groupId = group != null ? group : source == null ? null : source.groupId();
            if (groupId == null) {
                throw ToolException.usage(
                        "name the consumer group with --group, or give --config FILE with a source section");
            }
            Cluster c = cluster.cluster(pipeline, source).requireReachable();
            try {
                return new Target(groupId, c, partitions(c, groupId, source));
            } catch (RuntimeException e) {
                c.close();
                throw e;
            }
        }

        private List<TopicPartition> partitions(Cluster c, String groupId, KafkaSection source) {
            Set<String> names = new LinkedHashSet<>(topics);
            if (names.isEmpty() && source != null && group == null) {
                if (source.topicPattern() != null) {
                    Pattern pattern = Pattern.compile(source.topicPattern());
                    c.topicNames().stream()
                            .filter(t -> pattern.matcher(t).matches())
                            .forEach(names::add);
                } else {
                    names.addAll(source.topics());
                }
            }
            if (names.isEmpty()) {
                c.get(c.admin().listConsumerGroupOffsets(groupId).partitionsToOffsetAndMetadata(), "read group offsets")
                        .keySet()
                        .forEach(tp -> names.add(tp.topic()));
            }
            if (names.isEmpty()) {
                throw ToolException.failed(
                        "group '" + groupId + "' has no committed offsets; name the topics with" + " --topic");
            }
            Map<String, TopicDescription> described =
                    c.get(c.admin().describeTopics(names).allTopicNames(), "describe " + names);
            List<TopicPartition> out = new ArrayList<>();
            described.forEach((name, d) ->
                    d.partitions().forEach(p -> out.add(new TopicPartition(name, p.partition()))));
            out.sort(Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition));
            return out;
        }
    }

    /**
     * A group on its cluster and the partitions looked at.
     *
     * @param group      the group id
     * @param cluster    where it lives
     * @param partitions its partitions, sorted
     */
    record Target(String group, Cluster cluster, List<TopicPartition> partitions) implements AutoCloseable {

        /** The committed offset of each partition that has one. */
        Map<TopicPartition, Long> committed() {
            Map<TopicPartition, OffsetAndMetadata> found = cluster.get(
                    cluster.admin().listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata(),
                    "read the offsets of group '" + group + "'");
            Map<TopicPartition, Long> out = new TreeMap<>(
                    Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition));
            found.forEach((tp, om) -> {
                if (om != null && partitions.contains(tp)) {
                    out.put(tp, om.offset());
                }
            });
            return out;
        }

        /** The group's description: state and members. */
        ConsumerGroupDescription describe() {
            return cluster.get(
                            cluster.admin()
                                    .describeConsumerGroups(List.of(group))
                                    .all(),
                            "describe group '" + group + "'")
                    .get(group);
        }

        @Override
        public void close() {
            cluster.close();
        }
    }

    private static String members(ConsumerGroupDescription g) {
        return g.members().stream().map(m -> m.clientId() + "@" + m.host()).collect(Collectors.joining(", "));
    }

    private static String state(ConsumerGroupDescription g) {
        return g.groupState() == null ? "unknown" : g.groupState().toString();
    }

    /** {@code offsets show}. */
    @Command(
            name = "show",
            mixinStandardHelpOptions = true,
            versionProvider = Main.Version.class,
            description = "Prints each partition's committed offset, end offset and lag, and the group's members.")
    public static final class Show extends ToolCommand {

        @CommandLine.Mixin
        private GroupOptions options;

        @Override
        int run(PrintWriter out, PrintWriter err) {
            try (Target t = options.resolve()) {
                ConsumerGroupDescription group = t.describe();
                Map<TopicPartition, Long> committed = t.committed();
                Map<TopicPartition, Long> ends = Offsets.list(t.cluster(), t.partitions(), OffsetSpec.latest());
                out.println("group " + t.group() + ": " + state(group) + ", "
                        + group.members().size() + " member(s)"
                        + (group.members().isEmpty() ? "" : ": " + members(group)));
                Table table = new Table("TOPIC", "PARTITION", "COMMITTED", "END", "LAG");
                long lag = 0;
                int uncommitted = 0;
                for (TopicPartition tp : t.partitions()) {
                    Long at = committed.get(tp);
                    long end = ends.get(tp);
                    if (at == null) {
                        uncommitted++;
                        table.row(tp.topic(), tp.partition(), "-", end, "-");
                    } else {
                        lag += Math.max(0, end - at);
                        table.row(tp.topic(), tp.partition(), at, end, Math.max(0, end - at));
                    }
                }
                table.print(out);
                out.println("total lag: " + lag
                        + (uncommitted == 0
                                ? ""
                                : " (" + uncommitted + " partition(s) without a committed offset start at the"
                                        + " source's auto_offset_reset)"));
                return ExitCodes.OK;
            }
        }
    }

    /** {@code offsets reset}. */
    @Command(
            name = "reset",
            mixinStandardHelpOptions = true,
            versionProvider = Main.Version.class,
            description = {
                "Moves the group's committed offsets; says what it would do unless --execute.",
                "Refused while the group has live members: stop the pipeline first."
            },
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {
                "0:the plan was printed, or the offsets were moved",
                "1:refused (the group has live members) or the cluster could not be reached",
                "2:usage error"
            })
    public static final class Reset extends ToolCommand {

        @CommandLine.Mixin
        private GroupOptions options;

        @ArgGroup(exclusive = true, multiplicity = "1")
        private To to;

        /** Where the offsets go; exactly one. */
        static final class To {
            @Option(names = "--to-earliest", description = "To each partition's first record.")
            boolean earliest;

            @Option(names = "--to-latest", description = "To each partition's end: skip everything not read yet.")
            boolean latest;

            @Option(
                    names = "--to-datetime",
                    paramLabel = "DATETIME",
                    description = "To the first record at or after this time: 2026-12-07T10:15:00Z,"
                            + " 2026-12-07T10:15 (local), 2026-12-07, or -2h (ago).")
            String datetime;

            @Option(
                    names = "--shift-by",
                    paramLabel = "N",
                    description = "By N records (negative: back), within each partition's first and last record.")
            Long shift;
        }

        @Option(names = "--execute", description = "Move the offsets; without it nothing is changed.")
        private boolean execute;

        @Override
        int run(PrintWriter out, PrintWriter err) {
            Instant at;
            try {
                at = to.datetime == null ? null : DateTimes.parse(to.datetime, Clock.systemDefaultZone());
            } catch (IllegalArgumentException e) {
                throw usage("--to-datetime: " + e.getMessage());
            }
            try (Target t = options.resolve()) {
                Cluster c = t.cluster();
                ConsumerGroupDescription group = t.describe();
                Map<TopicPartition, Long> committed = t.committed();
                Map<TopicPartition, Long> earliest = Offsets.list(c, t.partitions(), OffsetSpec.earliest());
                Map<TopicPartition, Long> latest = Offsets.list(c, t.partitions(), OffsetSpec.latest());
                Map<TopicPartition, Long> byTime = at == null
                        ? Map.of()
                        : Offsets.list(c, t.partitions(), OffsetSpec.forTimestamp(at.toEpochMilli()));
                Map<TopicPartition, OffsetAndMetadata> plan = new TreeMap<>(
                        Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition));
                Table table = new Table("TOPIC", "PARTITION", "COMMITTED", "NEW", "END");
                for (TopicPartition tp : t.partitions()) {
                    Long now = committed.get(tp);
                    long target;
                    if (to.earliest) {
                        target = earliest.get(tp);
                    } else if (to.latest) {
                        target = latest.get(tp);
                    } else if (at != null) {
                        long found = byTime.getOrDefault(tp, -1L);
                        target = found < 0 ? latest.get(tp) : found;
                    } else {
                        long base = now != null ? now : earliest.get(tp);
                        target = Math.max(earliest.get(tp), Math.min(latest.get(tp), base + to.shift));
                    }
                    plan.put(tp, new OffsetAndMetadata(target));
                    table.row(tp.topic(), tp.partition(), now == null ? "-" : now, target, latest.get(tp));
                }
                out.println(
                        (execute ? "resetting" : "would reset") + " group " + t.group() + " (" + state(group) + "):");
                table.print(out);
                boolean live = !group.members().isEmpty() && group.groupState() != GroupState.EMPTY;
                if (live) {
                    String refusal = "group " + t.group() + " has "
                            + group.members().size() + " live member(s) (" + members(group)
                            + "): stop the pipeline first, or its next commit overwrites the reset";
                    if (execute) {
                        throw ToolException.failed(refusal);
                    }
                    err.println("note: --execute would be refused now: " + refusal);
                }
                if (!execute) {
                    out.println("dry run: nothing was changed; add --execute to move the offsets");
                    return ExitCodes.OK;
                }
                c.get(
                        c.admin().alterConsumerGroupOffsets(t.group(), plan).all(),
                        "move the offsets of group '" + t.group() + "'");
                out.println("reset " + plan.size() + " partition(s) of group " + t.group());
                return ExitCodes.OK;
            }
        }
    }
}
