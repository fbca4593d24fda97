package io.etl.kafka.source.it;

import io.etl.core.config.PipelineConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes the YAML a test pipeline runs with: one Kafka source {@code orders}, named Kafka sinks. Each section
 * starts from settings that suit a test (short timeouts, small pools); {@link #pipeline}, {@link #source} and
 * {@link #eachSink} set any other key of a section, with its value written as YAML.
 */
final class PipelineYaml {

    /** The source's keys besides its brokers, topic and group: short timeouts; a bad record stops the pipeline. */
    private static final Map<String, String> SOURCE_DEFAULTS = Map.of(
            "session_timeout", "6s",
            "revoke_timeout", "10s",
            "startup_timeout", "20s",
            "on_error", "fail");

    /** Every sink's keys besides its brokers, topic and pool: short timeouts and backoffs, no statistics. */
    private static final Map<String, String> SINK_DEFAULTS = Map.of(
            "delivery_timeout", "30s",
            "startup_timeout", "20s",
            "statistics_interval", "0s",
            "breaker", "{open_wait: 1s}",
            "retry", "{initial_backoff: 100ms, max_backoff: 1s}");

    private final String name;
    private final Map<String, String> pipeline = new TreeMap<>();
    private final Map<String, String> source = new TreeMap<>(SOURCE_DEFAULTS);
    private final Map<String, String> consumer = new LinkedHashMap<>();
    private final Map<String, String> sinks = new LinkedHashMap<>();
    private final Map<String, String> eachSink = new TreeMap<>(SINK_DEFAULTS);
    private final Map<String, String> producer = new LinkedHashMap<>();
    private String sinkBrokers;
    private String linger;
    private String checkpointInterval = "250ms";
    private String drainTimeout = "15s";
    private String stalledFailAfter;
    private String deadLetterTopic;
    private final Map<String, String> routes = new LinkedHashMap<>();
    private String retryLevels;
    private String retryThen;

    private PipelineYaml(String name, String brokers, String inputTopic, String groupId) {
        this.name = name;
        this.sinkBrokers = brokers;
        source.put("brokers", quoted(brokers));
        source.put("topics", "[" + inputTopic + "]");
        source.put("group_id", groupId);
        pool(4, 4, 2000, "10ms");
    }

    static PipelineYaml of(String name, String brokers, String inputTopic, String groupId) {
        return new PipelineYaml(name, brokers, inputTopic, groupId);
    }

    PipelineYaml sink(String sinkName, String topic) {
        sinks.put(sinkName, topic);
        return this;
    }

    /**
     * A sink entry that is a route's template: no topic, and the {@code route} block {@code inlineYaml}, e.g.
     * {@code {topic_pattern: "routed-.*", create: {partitions: 2}}}; it gets every sink's keys too.
     */
    PipelineYaml routeTemplate(String sinkName, String inlineYaml) {
        routes.put(sinkName, inlineYaml);
        return this;
    }

    /**
     * A top-level {@code retry} section with these levels, e.g. {@code [{after: 2s}, {after: 3s}]}, and {@code then}
     * (null for the default), written by a Kafka section on the sink brokers.
     */
    PipelineYaml retry(String levels, String then) {
        retryLevels = levels;
        retryThen = then;
        return this;
    }

    /** The brokers of every sink and of the dead-letter section (the source's by default). */
    PipelineYaml sinkBrokers(String value) {
        sinkBrokers = value;
        return this;
    }

    /** A key of the {@code pipeline} section, e.g. {@code on_error} or {@code delivery}. */
    PipelineYaml pipeline(String key, String yamlValue) {
        pipeline.put(key, yamlValue);
        return this;
    }

    /** A key of the source's {@code kafka} section, e.g. {@code on_error} or {@code revoke_timeout}. */
    PipelineYaml source(String key, String yamlValue) {
        source.put(key, yamlValue);
        return this;
    }

    /** A key of every sink's {@code kafka} section, e.g. {@code delivery_timeout} or {@code max_message_bytes}. */
    PipelineYaml eachSink(String key, String yamlValue) {
        eachSink.put(key, yamlValue);
        return this;
    }

    PipelineYaml groupInstanceId(String value) {
        return source("group_instance_id", value);
    }

    /** A consumer passthrough property of the source. */
    PipelineYaml consumer(String key, String value) {
        consumer.put(key, value);
        return this;
    }

    PipelineYaml sessionTimeout(String value) {
        return source("session_timeout", value);
    }

    /** The pool of every sink: in-flight batches, queued batches, and the batch's size and linger. */
    PipelineYaml pool(int inflight, int queue, int maxRecords, String batchLinger) {
        linger = batchLinger;
        eachSink.put("inflight", String.valueOf(inflight));
        eachSink.put("queue", String.valueOf(queue));
        return eachSink("batch", "{max_records: " + maxRecords + ", linger: " + batchLinger + "}");
    }

    /** A top-level {@code dead_letter} section writing {@code topic} on the sink brokers. */
    PipelineYaml deadLetter(String topic) {
        deadLetterTopic = topic;
        return this;
    }

    /**
     * A top-level {@code dead_letter} section writing {@code topic}, and {@code on_error: dead_letter} for the
     * source, the operators and every sink: each record that fails anywhere ends up there.
     */
    PipelineYaml deadLetterOnEveryError(String topic) {
        return deadLetter(topic)
                .source("on_error", "dead_letter")
                .pipeline("on_error", "dead_letter")
                .eachSink("on_error", "dead_letter");
    }

    /** A {@code security} section (inline YAML) for the source and every sink. */
    PipelineYaml security(String inlineYaml) {
        return source("security", inlineYaml).eachSink("security", inlineYaml);
    }

    /** A producer passthrough property of every sink. */
    PipelineYaml producer(String key, String value) {
        producer.put(key, value);
        return this;
    }

    /** The {@code startup_timeout} of the source and of every sink. */
    PipelineYaml startupTimeout(String value) {
        return source("startup_timeout", value).eachSink("startup_timeout", value);
    }

    /** The {@code refused_timeout} of the source and of every sink. */
    PipelineYaml refusedTimeout(String value) {
        return source("refused_timeout", value).eachSink("refused_timeout", value);
    }

    /** {@code interval} null leaves {@code checkpoint.interval} at its default. */
    PipelineYaml checkpoint(String interval, String drain) {
        checkpointInterval = interval;
        drainTimeout = drain;
        return this;
    }

    /** {@code checkpoint.stalled_fail_after}: how long a partition may stay stuck behind a fatally failed batch. */
    PipelineYaml stalledFailAfter(String value) {
        stalledFailAfter = value;
        return this;
    }

    String render() {
        StringBuilder y = new StringBuilder();
        y.append("pipeline:\n  name: ").append(name).append('\n');
        keys(y, "  ", pipeline);
        y.append("source:\n  orders:\n    kafka:\n");
        keys(y, "      ", source);
        passthrough(y, "consumer", consumer);
        y.append("sinks:\n");
        sinks.forEach((sink, topic) -> {
            y.append("  ").append(sink).append(":\n    kafka:\n");
            y.append("      brokers: ").append(quoted(sinkBrokers)).append('\n');
            y.append("      topic: ").append(topic).append('\n');
            keys(y, "      ", eachSink);
            passthrough(y, "producer", producer);
        });
        routes.forEach((sink, route) -> {
            y.append("  ").append(sink).append(":\n    kafka:\n");
            y.append("      brokers: ").append(quoted(sinkBrokers)).append('\n');
            y.append("      route: ").append(route).append('\n');
            keys(y, "      ", eachSink);
            passthrough(y, "producer", producer);
        });
        if (deadLetterTopic != null) {
            y.append("dead_letter:\n  kafka:\n");
            y.append("    brokers: ").append(quoted(sinkBrokers)).append('\n');
            y.append("    topic: ").append(deadLetterTopic).append('\n');
            y.append("    statistics_interval: 0s\n");
            y.append("    batch: {linger: ").append(linger).append("}\n");
            y.append("    retry: {initial_backoff: 100ms, max_backoff: 1s}\n");
        }
        if (retryLevels != null) {
            y.append("retry:\n  topics: ").append(retryLevels).append('\n');
            if (retryThen != null) {
                y.append("  then: ").append(retryThen).append('\n');
            }
            y.append("  kafka:\n");
            y.append("    brokers: ").append(quoted(sinkBrokers)).append('\n');
            y.append("    statistics_interval: 0s\n");
            y.append("    batch: {linger: ").append(linger).append("}\n");
            y.append("    retry: {initial_backoff: 100ms, max_backoff: 1s}\n");
        }
        y.append("checkpoint:\n");
        if (checkpointInterval != null) {
            y.append("  interval: ").append(checkpointInterval).append('\n');
        }
        y.append("  drain_timeout: ").append(drainTimeout).append('\n');
        if (stalledFailAfter != null) {
            y.append("  stalled_fail_after: ").append(stalledFailAfter).append('\n');
        }
        return y.toString();
    }

    private static void keys(StringBuilder y, String indent, Map<String, String> section) {
        section.forEach((key, value) ->
                y.append(indent).append(key).append(": ").append(value).append('\n'));
    }

    /** A client passthrough block of a connector's {@code kafka} section, its values quoted. */
    private static void passthrough(StringBuilder y, String block, Map<String, String> properties) {
        if (!properties.isEmpty()) {
            y.append("      ").append(block).append(":\n");
            properties.forEach((key, value) -> y.append("        ")
                    .append(key)
                    .append(": ")
                    .append(quoted(value))
                    .append('\n'));
        }
    }

    private static String quoted(String value) {
        return "\"" + value + "\"";
    }

    PipelineConfig parse() {
        return PipelineConfig.parse(render(), n -> null);
    }

    Path write(Path dir) {
        try {
            Files.createDirectories(dir);
            Path file = dir.resolve(name + ".yaml");
            Files.writeString(file, render());
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
