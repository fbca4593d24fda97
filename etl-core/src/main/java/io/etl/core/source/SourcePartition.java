package io.etl.core.source;

import java.util.Objects;

/**
 * One partition of a source (for Kafka: a topic partition).
 *
 * @param topic     topic or stream name
 * @param partition partition number
 */
public record SourcePartition(String topic, int partition) {

    public SourcePartition {
        Objects.requireNonNull(topic, "topic");
    }

    @Override
    public String toString() {
        return topic + "-" + partition;
    }
}
