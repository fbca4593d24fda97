package io.etl.runtime.tools;

import io.etl.core.config.PipelineConfig;
import io.etl.runtime.internal.DurationOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import picocli.CommandLine.Option;

/**
 * The options that name a cluster, shared by every tool: a pipeline YAML whose connector section gives the brokers
 * and the security settings ({@code --config}, {@code --section}), or bootstrap servers ({@code --brokers}), plus
 * client properties and a timeout.
 */
final class ClusterOptions {

    /** The brokers a tool reaches without {@code --config} or {@code --brokers}, unless {@value #BROKERS_ENV} is set. */
    static final String DEFAULT_BROKERS = "localhost:9092";
    /** The environment variable that names the brokers when no option does. */
    static final String BROKERS_ENV = "KAFKA_BROKERS";

    @Option(
            names = "--config",
            paramLabel = "FILE",
            description = "A pipeline YAML: the brokers and security settings come from one of its Kafka sections"
                    + " (see --section).")
    private Path config;

    @Option(
            names = "--section",
            paramLabel = "NAME",
            description = "Which section of --config names the cluster: source.NAME, sinks.NAME or dead_letter."
                    + " Default: the section that reads or writes the topic at hand, else the first source.")
    private String section;

    @Option(
            names = {"-b", "--brokers"},
            paramLabel = "HOST:PORT[,...]",
            description = "Bootstrap servers; with --config they replace the section's and keep its security."
                    + " Default without --config: $" + BROKERS_ENV + ", else " + DEFAULT_BROKERS + ".")
    private String brokers;

    @Option(
            names = {"-X", "--client-property"},
            paramLabel = "KEY=VALUE",
            description = "A Kafka client property, e.g. security.protocol=SSL (repeatable); applied last.")
    private Map<String, String> clientProperties = new LinkedHashMap<>();

    @Option(
            names = "--timeout",
            paramLabel = "DURATION",
            defaultValue = "30s",
            converter = DurationOption.class,
            description = "Bounds each step against the cluster, e.g. 10s. Default: ${DEFAULT-VALUE}.")
    private Duration timeout;

    /** The pipeline YAML, loaded; null without {@code --config}. */
    PipelineConfig pipeline() {
        return config == null ? null : PipelineConfig.load(config);
    }

    /** The cluster of {@link #section(PipelineConfig, String)}, or of {@code --brokers}. */
    Cluster cluster(String topic) {
        PipelineConfig loaded = pipeline();
        return cluster(loaded, loaded == null ? null : section(loaded, topic));
    }

    /** The cluster of {@code chosen} (null: {@code --brokers} or the default). */
    Cluster cluster(PipelineConfig loaded, KafkaSection chosen) {
        Map<String, Object> props;
        String path;
        if (chosen != null) {
            props = chosen.connection(brokers);
            path = chosen.path();
        } else {
            props = new LinkedHashMap<>();
            props.put("bootstrap.servers", defaultBrokers());
            path = brokers != null ? "--brokers" : System.getenv(BROKERS_ENV) != null ? BROKERS_ENV : "brokers";
        }
        props.putAll(clientProperties);
        return new Cluster(props, path, timeout, chosen, loaded);
    }

    /**
     * The section {@code --section} names, else the first that reads or writes {@code topic} (when not null), else
     * the first source, else the first section.
     */
    KafkaSection section(PipelineConfig loaded, String topic) {
        List<KafkaSection> all = KafkaSection.of(loaded);
        if (all.isEmpty()) {
            throw ToolException.usage(config + " has no Kafka source, sink or dead_letter section to take the"
                    + " brokers from; use --brokers");
        }
        if (section != null) {
            String wanted = section.endsWith(".kafka") ? section.substring(0, section.length() - 6) : section;
            return all.stream()
                    .filter(s -> s.name().equals(wanted))
                    .findFirst()
                    .orElseThrow(() -> ToolException.usage("--section " + section + ": no such Kafka section in "
                            + config + " (have: "
                            + all.stream().map(KafkaSection::name).collect(Collectors.joining(", ")) + ")"));
        }
        if (topic != null) {
            for (KafkaSection s : all) {
                if (s.topics().contains(topic)) {
                    return s;
                }
            }
        }
        return all.stream().filter(KafkaSection::isSource).findFirst().orElse(all.get(0));
    }

    /** Whether a pipeline YAML names the cluster. */
    boolean hasConfig() {
        return config != null;
    }

    Path configFile() {
        return config;
    }

    Duration timeout() {
        return timeout;
    }

    private String defaultBrokers() {
        if (brokers != null) {
            return brokers;
        }
        String env = System.getenv(BROKERS_ENV);
        return env != null && !env.isBlank() ? env : DEFAULT_BROKERS;
    }
}
