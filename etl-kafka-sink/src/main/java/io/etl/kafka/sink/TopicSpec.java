package io.etl.kafka.sink;

import io.etl.core.config.ConfigValidation;
import io.etl.core.error.ConfigException;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import java.util.Map;
import java.util.Objects;

/**
 * A topic the sink creates at startup ({@code sinks.<name>.kafka.topics[]}) when it does not exist yet;
 * an existing topic is left as it is. Creation waits until every partition has a leader.
 *
 * <p>In code, build one with {@link #custom()}: {@code TopicSpec.custom().name("orders-eu").partitions(6).build()}.
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

    /**
     * The topic, a null partition count or replication factor left to the broker. YAML binding calls this
     * constructor; code reads better with {@link #custom()}.
     *
     * @throws ConfigException when the name is blank or a count below 1, naming each
     */
    public TopicSpec(String name, Integer partitions, Integer replicationFactor, Map<String, String> configs) {
        this.name = name;
        this.partitions = partitions;
        this.replicationFactor = replicationFactor;
        this.configs = configs == null ? Map.of() : Map.copyOf(configs);
        ConfigValidation.checkConstructed(this);
    }

    /** A builder without a name (required), the counts left to the broker and no topic configs. */
    public static Builder custom() {
        return new Builder();
    }

    /** A builder starting from {@code base}. */
    public static Builder from(TopicSpec base) {
        return new Builder(Objects.requireNonNull(base, "base"));
    }

    /** Builds a {@link TopicSpec} in code; each setter checks its value at once. */
    public static final class Builder {

        private String name;
        private Integer partitions;
        private Integer replicationFactor;
        private Map<String, String> configs = Map.of();

        private Builder() {}

        private Builder(TopicSpec base) {
            name = base.name();
            partitions = base.partitions();
            replicationFactor = base.replicationFactor();
            configs = base.configs();
        }

        /** The topic's name, not blank; required. */
        public Builder name(String value) {
            name = ConfigValidation.checkValue(TopicSpec.class, "name", value);
            return this;
        }

        /** Partitions, at least 1; default the broker's {@code num.partitions}. */
        public Builder partitions(int value) {
            partitions = ConfigValidation.checkValue(TopicSpec.class, "partitions", value);
            return this;
        }

        /** Replicas per partition, at least 1; default the broker's {@code default.replication.factor}. */
        public Builder replicationFactor(int value) {
            replicationFactor = ConfigValidation.checkValue(TopicSpec.class, "replicationFactor", value);
            return this;
        }

        /** Topic configs, e.g. {@code cleanup.policy: compact}; default none. */
        public Builder configs(Map<String, String> value) {
            configs = Map.copyOf(ConfigValidation.requireNonNull("configs", value));
            return this;
        }

        /** The topic; the constructor checks the name is set. */
        public TopicSpec build() {
            return new TopicSpec(name, partitions, replicationFactor, configs);
        }
    }
}
