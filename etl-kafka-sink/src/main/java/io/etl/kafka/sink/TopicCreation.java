package io.etl.kafka.sink;

import io.etl.core.config.ConfigValidation;
import io.etl.core.error.ConfigException;
import jakarta.validation.constraints.Min;
import java.util.Map;

/**
 * How a route creates a topic it writes for the first time and that does not exist yet
 * ({@code sinks.<name>.kafka.route.create}): a {@code topics} entry without its name.
 *
 * @param partitions        number of partitions; the broker's {@code num.partitions} when absent
 * @param replicationFactor replicas per partition; the broker's {@code default.replication.factor} when absent
 * @param configs           topic configs, e.g. {@code retention.ms: "604800000"}
 */
public record TopicCreation(
        @Min(1) Integer partitions, @Min(1) Integer replicationFactor, Map<String, String> configs) {

    /**
     * The settings, null {@code configs} as none.
     *
     * @throws ConfigException when {@code partitions} or {@code replicationFactor} is below 1
     */
    public TopicCreation(Integer partitions, Integer replicationFactor, Map<String, String> configs) {
        this.partitions = partitions;
        this.replicationFactor = replicationFactor;
        this.configs = configs == null ? Map.of() : Map.copyOf(configs);
        ConfigValidation.checkConstructed(this);
    }

    /** The broker's defaults for partitions, replication and configs. */
    public static TopicCreation brokerDefaults() {
        return new TopicCreation(null, null, Map.of());
    }

    /** {@code partitions} partitions, the broker's default replication. */
    public static TopicCreation ofPartitions(int partitions) {
        return new TopicCreation(partitions, null, Map.of());
    }

    /** The {@code topics} entry that creates topic {@code name} this way. */
    public TopicSpec forTopic(String name) {
        return new TopicSpec(name, partitions, replicationFactor, configs);
    }
}
