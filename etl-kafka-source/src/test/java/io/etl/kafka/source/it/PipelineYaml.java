package io.etl.kafka.source.it;

import io.etl.core.config.PipelineConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** Writes the YAML a test pipeline runs with: one Kafka source {@code orders}, named Kafka sinks. */
final class PipelineYaml {

    private final String name;
    private final String sourceBrokers;
    private final String inputTopic;
    private final String groupId;
    private String sinkBrokers;
    private String groupInstanceId;
    private String onError = "fail";
    private String sessionTimeout = "6s";
    private String revokeTimeout = "10s";
    private final Map<String, String> consumer = new LinkedHashMap<>();
    private final Map<String, String> sinks = new LinkedHashMap<>();
    private String deliveryTimeout = "30s";
    private int inflight = 4;
    private int queue = 4;
    private int maxRecords = 2000;
    private String linger = "10ms";
    private String checkpointInterval = "250ms";
    private String drainTimeout = "15s";
    private String pipelineOnError;
    private String sinkOnError;
    private String sinkMaxMessageBytes;
    private String deadLetterTopic;
    private String delivery;
    private String security;
    private String breaker = "{open_wait: 1s}";
    private final Map<String, String> producer = new LinkedHashMap<>();
    private String startupTimeout = "20s";

    private PipelineYaml(String name, String brokers, String inputTopic, String groupId) {
        this.name = name;
        this.sourceBrokers = brokers;
        this.sinkBrokers = brokers;
        this.inputTopic = inputTopic;
        this.groupId = groupId;
    }

    static PipelineYaml of(String name, String brokers, String inputTopic, String groupId) {
        return new PipelineYaml(name, brokers, inputTopic, groupId);
    }

    PipelineYaml sink(String sinkName, String topic) {
        sinks.put(sinkName, topic);
        return this;
    }

    PipelineYaml sinkBrokers(String value) {
        sinkBrokers = value;
        return this;
    }

    PipelineYaml groupInstanceId(String value) {
        groupInstanceId = value;
        return this;
    }

    PipelineYaml onError(String value) {
        onError = value;
        return this;
    }

    PipelineYaml sessionTimeout(String value) {
        sessionTimeout = value;
        return this;
    }

    PipelineYaml revokeTimeout(String value) {
        revokeTimeout = value;
        return this;
    }

    PipelineYaml consumer(String key, String value) {
        consumer.put(key, value);
        return this;
    }

    PipelineYaml deliveryTimeout(String value) {
        deliveryTimeout = value;
        return this;
    }

    PipelineYaml pool(int inflightValue, int queueValue, int maxRecordsValue, String lingerValue) {
        inflight = inflightValue;
        queue = queueValue;
        maxRecords = maxRecordsValue;
        linger = lingerValue;
        return this;
    }

    /** {@code pipeline.on_error}: the operators' default policy. */
    PipelineYaml pipelineOnError(String value) {
        pipelineOnError = value;
        return this;
    }

    /** {@code on_error} of every sink. */
    PipelineYaml sinkOnError(String value) {
        sinkOnError = value;
        return this;
    }

    /** {@code max_message_bytes} of every sink. */
    PipelineYaml sinkMaxMessageBytes(String value) {
        sinkMaxMessageBytes = value;
        return this;
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
                .onError("dead_letter")
                .pipelineOnError("dead_letter")
                .sinkOnError("dead_letter");
    }

    /** {@code pipeline.delivery}. */
    PipelineYaml delivery(String value) {
        delivery = value;
        return this;
    }

    /** A {@code security} section (inline YAML) for the source and every sink. */
    PipelineYaml security(String inlineYaml) {
        security = inlineYaml;
        return this;
    }

    /** The {@code breaker} section (inline YAML) of every sink. */
    PipelineYaml breaker(String inlineYaml) {
        breaker = inlineYaml;
        return this;
    }

    /** A producer passthrough property of every sink. */
    PipelineYaml producer(String key, String value) {
        producer.put(key, value);
        return this;
    }

    /** The {@code startup_timeout} of the source and of every sink. */
    PipelineYaml startupTimeout(String value) {
        startupTimeout = value;
        return this;
    }

    /** {@code interval} null leaves {@code checkpoint.interval} at its default. */
    PipelineYaml checkpoint(String interval, String drain) {
        checkpointInterval = interval;
        drainTimeout = drain;
        return this;
    }

    String render() {
        StringBuilder y = new StringBuilder();
        y.append("pipeline:\n  name: ").append(name).append('\n');
        if (pipelineOnError != null) {
            y.append("  on_error: ").append(pipelineOnError).append('\n');
        }
        if (delivery != null) {
            y.append("  delivery: ").append(delivery).append('\n');
        }
        y.append("source:\n  orders:\n    kafka:\n");
        y.append("      brokers: \"").append(sourceBrokers).append("\"\n");
        y.append("      topics: [").append(inputTopic).append("]\n");
        y.append("      group_id: ").append(groupId).append('\n');
        if (groupInstanceId != null) {
            y.append("      group_instance_id: ").append(groupInstanceId).append('\n');
        }
        y.append("      session_timeout: ").append(sessionTimeout).append('\n');
        y.append("      revoke_timeout: ").append(revokeTimeout).append('\n');
        y.append("      startup_timeout: ").append(startupTimeout).append('\n');
        y.append("      on_error: ").append(onError).append('\n');
        if (!consumer.isEmpty()) {
            y.append("      consumer:\n");
            consumer.forEach((k, v) ->
                    y.append("        ").append(k).append(": \"").append(v).append("\"\n"));
        }
        if (security != null) {
            y.append("      security: ").append(security).append('\n');
        }
        y.append("sinks:\n");
        sinks.forEach((sink, topic) -> {
            y.append("  ").append(sink).append(":\n    kafka:\n");
            y.append("      brokers: \"").append(sinkBrokers).append("\"\n");
            y.append("      topic: ").append(topic).append('\n');
            y.append("      delivery_timeout: ").append(deliveryTimeout).append('\n');
            y.append("      startup_timeout: ").append(startupTimeout).append('\n');
            y.append("      statistics_interval: 0s\n");
            y.append("      inflight: ").append(inflight).append('\n');
            y.append("      queue: ").append(queue).append('\n');
            y.append("      batch: {max_records: ")
                    .append(maxRecords)
                    .append(", linger: ")
                    .append(linger)
                    .append("}\n");
            y.append("      retry: {initial_backoff: 100ms, max_backoff: 1s}\n");
            y.append("      breaker: ").append(breaker).append('\n');
            if (security != null) {
                y.append("      security: ").append(security).append('\n');
            }
            if (!producer.isEmpty()) {
                y.append("      producer:\n");
                producer.forEach((k, v) ->
                        y.append("        ").append(k).append(": \"").append(v).append("\"\n"));
            }
            if (sinkOnError != null) {
                y.append("      on_error: ").append(sinkOnError).append('\n');
            }
            if (sinkMaxMessageBytes != null) {
                y.append("      max_message_bytes: ")
                        .append(sinkMaxMessageBytes)
                        .append('\n');
            }
        });
        if (deadLetterTopic != null) {
            y.append("dead_letter:\n  kafka:\n");
            y.append("    brokers: \"").append(sinkBrokers).append("\"\n");
            y.append("    topic: ").append(deadLetterTopic).append('\n');
            y.append("    statistics_interval: 0s\n");
            y.append("    batch: {linger: ").append(linger).append("}\n");
            y.append("    retry: {initial_backoff: 100ms, max_backoff: 1s}\n");
        }
        y.append("checkpoint:\n");
        if (checkpointInterval != null) {
            y.append("  interval: ").append(checkpointInterval).append('\n');
        }
        y.append("  drain_timeout: ").append(drainTimeout).append('\n');
        return y.toString();
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
