package io.etl.kafka.sink;

import io.etl.core.config.ConfigValidation;
import io.etl.core.error.ConfigException;
import io.etl.kafka.sink.internal.RouteSettings;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import java.util.List;
import java.util.Objects;

/**
 * The {@code route} block of a sink section that serves as a route's template ({@code sinks.<name>.kafka.route}, in a
 * section without {@code topic}): which topics the route may write, how many it may have open, and whether it creates
 * the ones that do not exist. Exactly one of {@code topics} and {@code topic_pattern} is required.
 *
 * <pre>{@code
 * sinks:
 *   tenants:
 *     kafka:
 *       brokers: ${KAFKA_BROKERS}
 *       route:
 *         topic_pattern: "orders-[a-z0-9-]+"
 *         max_topics: 200
 *         create: {partitions: 6, configs: {retention.ms: "604800000"}}
 *       on_error: dead_letter     # a topic outside the pattern, or one that cannot be opened
 * }</pre>
 *
 * @param topics       the topics the route may write
 * @param topicPattern a Java regular expression the whole topic name must match, instead of {@code topics}
 * @param maxTopics    how many distinct topics the route may have open; a value for one more topic is a record error
 * @param create       how a topic that does not exist is created on its first use; absent: such a topic is a record
 *                     error
 */
public record RouteConfig(
        List<@NotBlank String> topics,
        String topicPattern,
        @Min(1) @Max(100_000) Integer maxTopics,
        @Valid TopicCreation create) {

    public static final int DEFAULT_MAX_TOPICS = 1000;

    /**
     * The block, a null {@code topics} as none and a null {@code maxTopics} at its default.
     *
     * @throws ConfigException when a setting is out of range, both or neither of {@code topics} and
     *                         {@code topic_pattern} are set, or the pattern is not a regular expression
     */
    public RouteConfig(List<String> topics, String topicPattern, Integer maxTopics, TopicCreation create) {
        this.topics = topics == null ? List.of() : List.copyOf(topics);
        this.topicPattern = topicPattern;
        this.maxTopics = maxTopics == null ? DEFAULT_MAX_TOPICS : maxTopics;
        this.create = create;
        ConfigValidation.checkConstructed(this, c -> RouteSettings.checkRoute(c, ""));
    }

    /** A route to the listed topics, which must exist. */
    public static RouteConfig toTopics(List<String> topics) {
        return new RouteConfig(Objects.requireNonNull(topics, "topics"), null, null, null);
    }

    /** A route to any topic matching {@code regex}, which must exist. */
    public static RouteConfig matching(String regex) {
        return new RouteConfig(null, Objects.requireNonNull(regex, "regex"), null, null);
    }

    /** A copy that creates missing topics as {@code value} says (null: never). */
    public RouteConfig withCreate(TopicCreation value) {
        return new RouteConfig(topics, topicPattern, maxTopics, value);
    }

    /** A copy with another bound on open topics. */
    public RouteConfig withMaxTopics(int value) {
        return new RouteConfig(topics, topicPattern, value, create);
    }
}
