package io.etl.core.config;

import io.etl.core.error.ConfigException;
import io.etl.core.error.ConfigProblem;
import io.etl.core.error.ErrorPolicy;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotEmpty;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The levels of the top-level {@code retry} section: where a record whose stage has policy {@code retry} goes when it
 * fails. The n-th failure of a record writes it to the n-th level's topic, named after the topic it was first read
 * from; the pipeline reads it from there once the level's delay has passed and runs it through the chain again. After
 * a failure in the last level, {@code then} applies.
 *
 * <pre>{@code
 * retry:
 *   topics: [{after: 10s}, {after: 1m}, {after: 10m}]
 *   then: dead_letter
 *   kafka: {brokers: ${KAFKA_BROKERS}}     # the connector that writes the retry topics
 * }</pre>
 *
 * <p>However it is built, an instance holds only values that YAML validation accepts: its constructor checks them.
 *
 * @param topics the levels in order, at least one
 * @param then   what happens after a failure in the last level: {@code dead_letter} (default), {@code skip} or
 *               {@code fail}
 */
public record RetryTopicsConfig(@NotEmpty List<@Valid RetryLevel> topics, ErrorPolicy then) {

    public static final ErrorPolicy DEFAULT_THEN = ErrorPolicy.DEAD_LETTER;

    /**
     * The settings; a null {@code then} becomes {@link #DEFAULT_THEN}.
     *
     * @throws ConfigException when a setting is out of range, naming each one
     */
    public RetryTopicsConfig(List<RetryLevel> topics, ErrorPolicy then) {
        this.topics = topics == null ? List.of() : List.copyOf(topics);
        this.then = then == null ? DEFAULT_THEN : then;
        ConfigValidation.checkConstructed(this, RetryTopicsConfig::rules);
    }

    /** Levels of these delays, with the default suffixes, then {@code then}. */
    public static RetryTopicsConfig of(ErrorPolicy then, List<RetryLevel> levels) {
        return new RetryTopicsConfig(Objects.requireNonNull(levels, "levels"), then);
    }

    /** What a constraint cannot say: each delay is above zero, and {@code then} is not {@code retry} again. */
    public static List<ConfigProblem> rules(RetryTopicsConfig config) {
        List<ConfigProblem> problems = new ArrayList<>();
        for (int i = 0; i < config.topics().size(); i++) {
            RetryLevel level = config.topics().get(i);
            if (level != null
                    && level.after() != null
                    && (level.after().isNegative() || level.after().isZero())) {
                problems.add(new ConfigProblem("topics[" + i + "].after", "must be above zero"));
            }
        }
        if (config.then() == ErrorPolicy.RETRY) {
            problems.add(new ConfigProblem("then", "must be dead_letter, skip or fail: the retries are over"));
        }
        return problems;
    }

    /** The distinct retry topics of records first read from {@code topic}, in level order. */
    public List<String> topicsFor(String topic) {
        Set<String> names = new LinkedHashSet<>();
        for (RetryLevel level : topics) {
            names.add(level.topicFor(topic));
        }
        return List.copyOf(names);
    }
}
