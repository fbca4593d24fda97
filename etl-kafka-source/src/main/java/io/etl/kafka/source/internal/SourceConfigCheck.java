package io.etl.kafka.source.internal;

import io.etl.core.error.ConfigProblem;
import io.etl.kafka.common.internal.BootstrapAddresses;
import io.etl.kafka.common.internal.ClientPassthrough;
import io.etl.kafka.common.internal.SecurityProperties;
import io.etl.kafka.source.KafkaSourceConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/** The rules of {@link KafkaSourceConfig} a record and Bean Validation cannot express. */
final class SourceConfigCheck {

    private static final Pattern INSTANCE_ID = Pattern.compile("[a-zA-Z0-9._-]{1,249}");

    private static final ClientPassthrough PASSTHROUGH =
            ClientPassthrough.consumer(KafkaSourceConfig.DENIED_CONSUMER_PROPERTIES);

    private SourceConfigCheck() {}

    /** Every problem of {@code config}, each path starting with {@code path}. */
    static List<ConfigProblem> problems(KafkaSourceConfig config, String path) {
        List<ConfigProblem> problems = new ArrayList<>();
        boolean hasTopics = !config.topics().isEmpty();
        boolean hasPattern = config.topicPattern() != null;
        if (hasTopics == hasPattern) {
            problems.add(new ConfigProblem(
                    path + (hasTopics ? ".topic_pattern" : ".topics"),
                    hasTopics
                            ? "cannot be combined with topics: set exactly one of topics and topic_pattern"
                            : "set exactly one of topics and topic_pattern"));
        }
        if (hasPattern) {
            if (config.topicPattern().isBlank()) {
                problems.add(new ConfigProblem(path + ".topic_pattern", "must not be blank"));
            } else {
                try {
                    Pattern.compile(config.topicPattern());
                } catch (PatternSyntaxException e) {
                    problems.add(new ConfigProblem(
                            path + ".topic_pattern",
                            "is not a valid regular expression (" + e.getDescription() + " near index " + e.getIndex()
                                    + ")"));
                }
            }
        }
        if (config.groupInstanceId() != null && config.groupInstanceId().isBlank()) {
            problems.add(new ConfigProblem(path + ".group_instance_id", "must not be blank when set"));
        } else if (config.groupInstanceId() != null
                && !INSTANCE_ID.matcher(config.groupInstanceId()).matches()) {
            // the broker's own rule for group.instance.id; it would otherwise reject the join at the first poll
            problems.add(new ConfigProblem(
                    path + ".group_instance_id",
                    "must be at most 249 characters of"
                            + " a-z, A-Z, 0-9, '.', '_' and '-' (for example the host name); got '"
                            + config.groupInstanceId() + "'"));
        }
        positive(problems, path + ".poll_timeout", config.pollTimeout(), Duration.ofMillis(1));
        positive(problems, path + ".revoke_timeout", config.revokeTimeout(), Duration.ofMillis(1));
        positive(problems, path + ".startup_timeout", config.startupTimeout(), Duration.ofMillis(1));
        positive(problems, path + ".refused_timeout", config.refusedTimeout(), Duration.ofMillis(1));
        problems.addAll(BootstrapAddresses.problems(config.brokers(), path + ".brokers"));
        positive(problems, path + ".session_timeout", config.sessionTimeout(), Duration.ofSeconds(1));
        if (config.statisticsInterval().isNegative()) {
            problems.add(
                    new ConfigProblem(path + ".statistics_interval", "must not be negative (0s disables statistics)"));
        }
        Set<String> typedSecurityKeys =
                config.security() == null ? Set.of() : SecurityProperties.clientPropertyKeys(config.security());
        problems.addAll(PASSTHROUGH.check(config.consumer(), path + ".consumer", typedSecurityKeys));
        if (config.security() != null) {
            problems.addAll(config.security()
                    .check(path + ".security", config.consumer().keySet()));
        }
        if (config.schemaRegistry() != null) {
            problems.addAll(config.schemaRegistry().check(path + ".schema_registry"));
        }
        return problems;
    }

    private static void positive(List<ConfigProblem> problems, String path, Duration value, Duration min) {
        if (value.compareTo(min) < 0) {
            problems.add(new ConfigProblem(
                    path,
                    "must be at least " + (min.toMillis() >= 1000 ? min.toSeconds() + "s" : min.toMillis() + "ms")));
        }
    }
}
