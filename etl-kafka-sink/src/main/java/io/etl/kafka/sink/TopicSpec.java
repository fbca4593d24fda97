package io.etl.kafka.sink;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import java.util.Map;

/**
 * A topic the sink creates at startup ({@code sinks.<name>.kafka.topics[]}) when it does not exist yet;
 * an existing topic is left as it is. Creation waits until every partition has a leader.
 *
 * @param name              topic name
 * @param partitions        number of partitions; the broker's {@code num.partitions} when absent
 * @param replicationFactor replicas per partition; the broker's {@code default.replication.factor} when absent
 * @param configs           topic configs, e.g. {@code cleanup.policy: compact}, {@code min.insync.replicas: "2"}
 */
public record TopicSpec(
        @NotBlank String name,
        @Min(1) Integer partitions,
        @Min(1) Integer replicationFactor,
        Map<String, String> configs) {

    public TopicSpec {
        configs = configs == null ? Map.of() : Map.copyOf(configs);
    }

    /** A topic with {@code partitions} partitions and the broker's default replication. */
    public static TopicSpec of(String name, int partitions) {
        return new TopicSpec(name, partitions, null, Map.of());
    }
}
