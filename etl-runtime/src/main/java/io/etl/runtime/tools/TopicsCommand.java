package io.etl.runtime.tools;

import io.etl.core.config.PipelineConfig;
import io.etl.kafka.sink.TopicSpec;
import io.etl.runtime.ExitCodes;
import io.etl.runtime.Main;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.TopicExistsException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code topics list|describe|create|delete}: the topics of a pipeline's cluster. {@code create} without names
 * creates the topics the pipeline YAML names (its sources', sinks' and dead-letter topics) that are missing, each
 * on its section's cluster; {@code delete} only says what it would delete unless {@code --execute}.
 */
@Command(
        name = "topics",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = "Lists, describes, creates and deletes topics.",
        subcommands = {
            TopicsCommand.ListTopics.class,
            TopicsCommand.DescribeTopics.class,
            TopicsCommand.CreateTopics.class,
            TopicsCommand.DeleteTopics.class
        },
        synopsisSubcommandLabel = "COMMAND")
public final class TopicsCommand implements Runnable {

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(
                spec.commandLine(), "missing command: list, describe, create or delete");
    }

    /** {@code topics list}. */
    @Command(
            name = "list",
            mixinStandardHelpOptions = true,
            versionProvider = Main.Version.class,
            description = "Lists the topics with their partitions and replication factor.")
    public static final class ListTopics extends ToolCommand {

        @CommandLine.Mixin
        private ClusterOptions cluster;

        @Option(names = "--internal", description = "Also list internal topics (__consumer_offsets, ...).")
        private boolean internal;

        @Override
        int run(PrintWriter out, PrintWriter err) {
            try (Cluster c = cluster.cluster(null).requireReachable()) {
                Set<String> names = c.get(
                        c.admin()
                                .listTopics(new ListTopicsOptions().listInternal(internal))
                                .names(),
                        "list the topics");
                Map<String, TopicDescription> described =
                        new TreeMap<>(c.get(c.admin().describeTopics(names).allTopicNames(), "describe the topics"));
                Table table = new Table("TOPIC", "PARTITIONS", "REPLICAS");
                described.forEach((name, d) -> table.row(
                        name,
                        d.partitions().size(),
                        d.partitions().get(0).replicas().size()));
                table.print(out);
                return ExitCodes.OK;
            }
        }
    }

    /** {@code topics describe TOPIC...}. */
    @Command(
            name = "describe",
            mixinStandardHelpOptions = true,
            versionProvider = Main.Version.class,
            description = {
                "Describes topics: each partition's leader, replicas, in-sync replicas and offsets, and the topic's"
                        + " settings that differ from the broker's defaults."
            })
    public static final class DescribeTopics extends ToolCommand {

        @CommandLine.Mixin
        private ClusterOptions cluster;

        @Parameters(paramLabel = "TOPIC", arity = "1..*", description = "The topics.")
        private List<String> topics;

        @Override
        int run(PrintWriter out, PrintWriter err) {
            try (Cluster c = cluster.cluster(topics.get(0)).requireReachable()) {
                Map<String, TopicDescription> described =
                        c.get(c.admin().describeTopics(topics).allTopicNames(), "describe " + topics);
                for (String name : topics) {
                    TopicDescription d = described.get(name);
                    List<TopicPartition> partitions = d.partitions().stream()
                            .map(p -> new TopicPartition(name, p.partition()))
                            .toList();
                    Map<TopicPartition, Long> earliest = Offsets.list(c, partitions, OffsetSpec.earliest());
                    Map<TopicPartition, Long> latest = Offsets.list(c, partitions, OffsetSpec.latest());
                    out.println("topic " + name + ": " + d.partitions().size() + " partition(s)"
                            + (d.isInternal() ? ", internal" : ""));
                    Table table = new Table("PARTITION", "LEADER", "REPLICAS", "ISR", "EARLIEST", "LATEST");
                    for (TopicPartitionInfo p : d.partitions()) {
                        TopicPartition tp = new TopicPartition(name, p.partition());
                        table.row(
                                p.partition(),
                                p.leader() == null ? "none" : p.leader().id(),
                                ids(p.replicas()),
                                ids(p.isr()),
                                earliest.get(tp),
                                latest.get(tp));
                    }
                    table.print(out);
                    for (ConfigEntry entry : ownSettings(c, name)) {
                        out.println("  " + entry.name() + "=" + entry.value());
                    }
                }
                return ExitCodes.OK;
            }
        }

        private static List<ConfigEntry> ownSettings(Cluster c, String topic) {
            ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
            Config config = c.get(c.admin().describeConfigs(List.of(resource)).all(), "read the settings of " + topic)
                    .get(resource);
            return config.entries().stream()
                    .filter(e -> e.source() == ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG)
                    .sorted((a, b) -> a.name().compareTo(b.name()))
                    .toList();
        }

        private static String ids(List<Node> nodes) {
            return nodes.stream().map(n -> Integer.toString(n.id())).collect(Collectors.joining(","));
        }
    }

    /** {@code topics create [TOPIC...]}. */
    @Command(
            name = "create",
            mixinStandardHelpOptions = true,
            versionProvider = Main.Version.class,
            description = {
                "Creates topics; an existing one is left as it is.",
                "Without names, creates the topics the --config file names (sources', sinks' and the dead-letter"
                        + " topic), each on its section's cluster, with a sink's topics[] settings where it has them."
            })
    public static final class CreateTopics extends ToolCommand {

        @CommandLine.Mixin
        private ClusterOptions cluster;

        @Parameters(paramLabel = "TOPIC", arity = "0..*", description = "The topics; none: the pipeline's.")
        private List<String> topics = new ArrayList<>();

        @Option(
                names = "--partitions",
                paramLabel = "N",
                description = "Partitions of each topic. Default: the broker's num.partitions.")
        private Integer partitions;

        @Option(
                names = "--replication-factor",
                paramLabel = "N",
                description = "Replicas of each partition. Default: the broker's default.replication.factor.")
        private Integer replicationFactor;

        @Option(
                names = "--topic-config",
                paramLabel = "KEY=VALUE",
                description = "A topic setting, e.g. retention.ms=86400000 (repeatable).")
        private Map<String, String> configs = new LinkedHashMap<>();

        @Override
        int run(PrintWriter out, PrintWriter err) {
            if (partitions != null && partitions < 1) {
                throw usage("--partitions must be at least 1, got " + partitions);
            }
            if (replicationFactor != null && replicationFactor < 1) {
                throw usage("--replication-factor must be at least 1, got " + replicationFactor);
            }
            if (!topics.isEmpty()) {
                try (Cluster c = cluster.cluster(topics.get(0)).requireReachable()) {
                    List<NewTopic> wanted =
                            topics.stream().map(t -> newTopic(t, null)).toList();
                    create(c, wanted, out);
                }
                return ExitCodes.OK;
            }
            PipelineConfig pipeline = cluster.pipeline();
            if (pipeline == null) {
                throw usage("name the topics, or give --config FILE to create the pipeline's topics");
            }
            // each section's topics on that section's cluster; sections that share a cluster share a client
            Map<Map<String, Object>, List<NewTopic>> byCluster = new LinkedHashMap<>();
            Map<Map<String, Object>, KafkaSection> sectionOf = new LinkedHashMap<>();
            for (KafkaSection section : KafkaSection.of(pipeline)) {
                Map<String, Object> connection =
                        cluster.cluster(pipeline, section).properties();
                sectionOf.putIfAbsent(connection, section);
                List<NewTopic> list = byCluster.computeIfAbsent(connection, k -> new ArrayList<>());
                for (String topic : section.topics()) {
                    if (list.stream().noneMatch(n -> n.name().equals(topic))) {
                        list.add(newTopic(topic, spec(section, topic).orElse(null)));
                    }
                }
                if (section.topicPattern() != null) {
                    err.println("note: " + section.path() + " reads the topics matching '" + section.topicPattern()
                            + "'; name them to create them");
                }
            }
            for (Map.Entry<Map<String, Object>, List<NewTopic>> e : byCluster.entrySet()) {
                try (Cluster c =
                        cluster.cluster(pipeline, sectionOf.get(e.getKey())).requireReachable()) {
                    create(c, e.getValue(), out);
                }
            }
            return ExitCodes.OK;
        }

        private static Optional<TopicSpec> spec(KafkaSection section, String topic) {
            return section.created().stream()
                    .filter(s -> s.name().equals(topic))
                    .findFirst();
        }

        /** The topic with the options given, else the section's {@code topics[]} settings, else the broker's. */
        private NewTopic newTopic(String name, TopicSpec fromSection) {
            Integer p = partitions != null ? partitions : fromSection == null ? null : fromSection.partitions();
            Integer r = replicationFactor != null
                    ? replicationFactor
                    : fromSection == null ? null : fromSection.replicationFactor();
            Map<String, String> settings = new LinkedHashMap<>();
            if (fromSection != null) {
                settings.putAll(fromSection.configs());
            }
            settings.putAll(configs);
            return new NewTopic(
                            name, Optional.ofNullable(p), Optional.ofNullable(r).map(Integer::shortValue))
                    .configs(settings);
        }

        private static void create(Cluster c, List<NewTopic> topics, PrintWriter out) {
            if (topics.isEmpty()) {
                return;
            }
            Map<String, KafkaFuture<Void>> results =
                    c.admin().createTopics(topics).values();
            List<String> created = new ArrayList<>();
            for (NewTopic topic : topics) {
                try {
                    results.get(topic.name()).get(c.timeout().toMillis(), TimeUnit.MILLISECONDS);
                    created.add(topic.name());
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof TopicExistsException) {
                        out.println("exists: " + topic.name());
                    } else {
                        throw ToolException.failed("cannot create topic '" + topic.name() + "' on " + c.brokers() + ": "
                                + e.getCause().getMessage());
                    }
                } catch (TimeoutException e) {
                    throw ToolException.failed("cannot create topic '" + topic.name() + "' on " + c.brokers()
                            + " within " + c.timeout().toSeconds() + "s");
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw ToolException.failed("interrupted");
                }
            }
            if (created.isEmpty()) {
                return;
            }
            Map<String, TopicDescription> described = Offsets.awaitLeaders(c, created);
            for (String name : created) {
                out.println("created: " + name + " ("
                        + described.get(name).partitions().size() + " partition(s))");
            }
        }
    }

    /** {@code topics delete TOPIC... [--execute]}. */
    @Command(
            name = "delete",
            mixinStandardHelpOptions = true,
            versionProvider = Main.Version.class,
            description = {"Deletes topics, with every record they hold. Says what it would delete unless --execute."})
    public static final class DeleteTopics extends ToolCommand {

        @CommandLine.Mixin
        private ClusterOptions cluster;

        @Parameters(paramLabel = "TOPIC", arity = "1..*", description = "The topics.")
        private List<String> topics;

        @Option(names = "--execute", description = "Delete them; without it nothing is changed.")
        private boolean execute;

        @Override
        int run(PrintWriter out, PrintWriter err) {
            for (String t : topics) {
                if (t.startsWith("__")) {
                    throw usage("'" + t + "' is an internal topic of the cluster; it is not deleted here");
                }
            }
            try (Cluster c = cluster.cluster(topics.get(0)).requireReachable()) {
                Map<String, TopicDescription> described =
                        c.get(c.admin().describeTopics(topics).allTopicNames(), "describe " + topics);
                List<TopicPartition> partitions = new ArrayList<>();
                described.forEach((name, d) ->
                        d.partitions().forEach(p -> partitions.add(new TopicPartition(name, p.partition()))));
                Map<TopicPartition, Long> earliest = Offsets.list(c, partitions, OffsetSpec.earliest());
                Map<TopicPartition, Long> latest = Offsets.list(c, partitions, OffsetSpec.latest());
                for (String name : topics) {
                    long records = partitions.stream()
                            .filter(tp -> tp.topic().equals(name))
                            .mapToLong(tp -> latest.get(tp) - earliest.get(tp))
                            .sum();
                    out.println((execute ? "deleting: " : "would delete: ") + name + " ("
                            + described.get(name).partitions().size() + " partition(s), " + records + " record(s))");
                }
                if (!execute) {
                    out.println("dry run: nothing was deleted; add --execute to delete");
                    return ExitCodes.OK;
                }
                c.get(c.admin().deleteTopics(topics).all(), "delete " + topics);
                out.println("deleted: " + String.join(", ", topics));
                return ExitCodes.OK;
            }
        }
    }
}
