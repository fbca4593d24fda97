package io.etl.kafka.sink.internal;

import io.etl.core.config.PipelineConfig;
import io.etl.core.config.RetrySection;
import io.etl.core.error.ConfigProblem;
import io.etl.kafka.sink.KafkaSinkConfig;
import io.etl.kafka.sink.RouteConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The rules between a Kafka sink section's {@code topic} and {@code route}: a sink entry names one of the two (a
 * section with {@code route} is a route's template), the {@code dead_letter} section a topic, the {@code retry}
 * section neither (its topics are named after the source's); and a route names its topics or a valid pattern.
 */
public final class RouteSettings {

    private static final String TOPIC_AND_ROUTE =
            "a route's template names no topic (the route picks one per record): remove topic, or route";

    private RouteSettings() {}

    /**
     * The rules that hold wherever the section sits: a topic is not blank, a section does not name both a topic
     * and a route, and a route is valid. What its record's constructor checks.
     */
    static List<ConfigProblem> own(KafkaSinkConfig config, String path) {
        List<ConfigProblem> problems = new ArrayList<>(ProducerSettings.topic(config.topic(), path));
        if (config.topic() != null && config.route() != null) {
            problems.add(new ConfigProblem(path + ".route", TOPIC_AND_ROUTE));
        }
        if (config.route() != null) {
            problems.addAll(checkRoute(config.route(), path + ".route"));
        }
        return problems;
    }

    /** Every rule of the section at {@code path}, those of its place included. */
    static List<ConfigProblem> check(KafkaSinkConfig config, String path) {
        List<ConfigProblem> problems = new ArrayList<>(ProducerSettings.topic(config.topic(), path));
        boolean hasTopic = config.topic() != null;
        RouteConfig route = config.route();
        if (path.startsWith(RetrySection.NAME + ".")) {
            if (hasTopic) {
                problems.add(new ConfigProblem(
                        path + ".topic",
                        "has no meaning here: each retry topic is named after the topic its record was read from"));
            }
            if (route != null) {
                problems.add(new ConfigProblem(
                        path + ".route", "has no meaning here: the retry topics are named after the source's topics"));
            }
            return problems;
        }
        if (path.startsWith(PipelineConfig.DEAD_LETTER + ".")) {
            if (!hasTopic) {
                problems.add(new ConfigProblem(path + ".topic", "must not be blank"));
            }
            if (route != null) {
                problems.add(new ConfigProblem(path + ".route", "has no meaning here: dead letters go to one topic"));
            }
            return problems;
        }
        if (!hasTopic && route == null) {
            problems.add(new ConfigProblem(path + ".topic", "must not be blank"));
        } else if (hasTopic && route != null) {
            problems.add(new ConfigProblem(path + ".route", TOPIC_AND_ROUTE));
        }
        if (route != null) {
            problems.addAll(checkRoute(route, path + ".route"));
        }
        return problems;
    }

    /** A route block's own rules: exactly one of {@code topics} and {@code topic_pattern}, a pattern that compiles. */
    public static List<ConfigProblem> checkRoute(RouteConfig route, String path) {
        List<ConfigProblem> problems = new ArrayList<>();
        boolean listed = !route.topics().isEmpty();
        boolean pattern = route.topicPattern() != null;
        if (listed == pattern) {
            problems.add(
                    new ConfigProblem(path.isEmpty() ? "topics" : path, "set exactly one of topics and topic_pattern"));
        }
        if (pattern) {
            try {
                Pattern.compile(route.topicPattern());
            } catch (PatternSyntaxException e) {
                problems.add(new ConfigProblem(
                        path + ".topic_pattern", "is not a regular expression: " + e.getDescription()));
            }
        }
        return problems;
    }
}
