package io.etl.kafka.source.internal;

import io.etl.core.error.ConfigProblem;
import io.etl.kafka.common.KafkaSecurityConfig;
import io.etl.kafka.common.internal.BootstrapAddresses;
import io.etl.kafka.common.internal.ClientPassthrough;
import io.etl.kafka.common.internal.SecurityProperties;
import io.etl.kafka.source.KafkaSourceConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The rules of {@link KafkaSourceConfig} a record and Bean Validation cannot express: the loader checks a bound
 * section with {@link #problems}, the record's constructor checks itself with it, and its builder's setters check
 * one key at once with the rule of that key.
 */
public final class SourceConfigCheck {

    private static final Pattern INSTANCE_ID = Pattern.compile("[a-zA-Z0-9._-]{1,249}");

    private static final ClientPassthrough PASSTHROUGH =
            ClientPassthrough.consumer(KafkaSourceConfig.DENIED_CONSUMER_PROPERTIES);

    private SourceConfigCheck() {}

    /**
     * Every problem of {@code config}, each path starting with {@code path} (e.g. {@code source.orders.kafka}, or
     * {@code ""} for a record's own check).
     */
    public static List<ConfigProblem> problems(KafkaSourceConfig config, String path) {
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
            problems.addAll(topicPattern(config.topicPattern(), path));
        }
        if (config.groupInstanceId() != null) {
            problems.addAll(groupInstanceId(config.groupInstanceId(), path));
        }
        problems.addAll(pollTimeout(config.pollTimeout(), path));
        problems.addAll(revokeTimeout(config.revokeTimeout(), path));
        problems.addAll(startupTimeout(config.startupTimeout(), path));
        problems.addAll(refusedTimeout(config.refusedTimeout(), path));
        problems.addAll(BootstrapAddresses.problems(config.brokers(), path + ".brokers"));
        problems.addAll(sessionTimeout(config.sessionTimeout(), path));
        problems.addAll(statisticsInterval(config.statisticsInterval(), path));
        problems.addAll(passthrough(config.consumer(), config.security(), path));
        if (config.security() != null) {
            problems.addAll(config.security()
                    .check(path + ".security", config.consumer().keySet()));
        }
        if (config.schemaRegistry() != null) {
            problems.addAll(config.schemaRegistry().check(path + ".schema_registry"));
        }
        return problems;
    }

    /** {@code topic_pattern}: a Java regular expression, not blank. */
    public static List<ConfigProblem> topicPattern(String value, String path) {
        if (value.isBlank()) {
            return List.of(new ConfigProblem(path + ".topic_pattern", "must not be blank"));
        }
        try {
            Pattern.compile(value);
            return List.of();
        } catch (PatternSyntaxException e) {
            return List.of(new ConfigProblem(
                    path + ".topic_pattern",
                    "is not a valid regular expression (" + e.getDescription() + " near index " + e.getIndex() + ")"));
        }
    }

    /** {@code group_instance_id}: the broker's own rule for {@code group.instance.id}, checked before the first join. */
    public static List<ConfigProblem> groupInstanceId(String value, String path) {
        if (value.isBlank()) {
            return List.of(new ConfigProblem(path + ".group_instance_id", "must not be blank when set"));
        }
        if (!INSTANCE_ID.matcher(value).matches()) {
            // the broker would otherwise reject the join at the first poll
            return List.of(new ConfigProblem(
                    path + ".group_instance_id",
                    "must be at most 249 characters of"
                            + " a-z, A-Z, 0-9, '.', '_' and '-' (for example the host name); got '" + value + "'"));
        }
        return List.of();
    }

    /** {@code poll_timeout}: at least 1ms. */
    public static List<ConfigProblem> pollTimeout(Duration value, String path) {
        return atLeast(path + ".poll_timeout", value, Duration.ofMillis(1));
    }

    /** {@code revoke_timeout}: at least 1ms. */
    public static List<ConfigProblem> revokeTimeout(Duration value, String path) {
        return atLeast(path + ".revoke_timeout", value, Duration.ofMillis(1));
    }

    /** {@code refused_timeout}: at least 1ms. */
    public static List<ConfigProblem> refusedTimeout(Duration value, String path) {
        return atLeast(path + ".refused_timeout", value, Duration.ofMillis(1));
    }

    /** {@code startup_timeout}: at least 1ms. */
    public static List<ConfigProblem> startupTimeout(Duration value, String path) {
        return atLeast(path + ".startup_timeout", value, Duration.ofMillis(1));
    }

    /** {@code session_timeout}: at least 1s. */
    public static List<ConfigProblem> sessionTimeout(Duration value, String path) {
        return atLeast(path + ".session_timeout", value, Duration.ofSeconds(1));
    }

    /** {@code statistics_interval}: zero (none) or more. */
    public static List<ConfigProblem> statisticsInterval(Duration value, String path) {
        return value.isNegative()
                ? List.of(new ConfigProblem(
                        path + ".statistics_interval", "must not be negative (0s disables statistics)"))
                : List.of();
    }

    /** The {@code consumer} passthrough: known properties only, none the source owns or {@code security} sets. */
    public static List<ConfigProblem> passthrough(
            Map<String, String> consumer, KafkaSecurityConfig security, String path) {
        Set<String> typedSecurityKeys = security == null ? Set.of() : SecurityProperties.clientPropertyKeys(security);
        return PASSTHROUGH.check(consumer, path + ".consumer", typedSecurityKeys);
    }

    private static List<ConfigProblem> atLeast(String path, Duration value, Duration min) {
        return value.compareTo(min) < 0
                ? List.of(new ConfigProblem(
                        path,
                        "must be at least " + (min.toMillis() >= 1000 ? min.toSeconds() + "s" : min.toMillis() + "ms")))
                : List.of();
    }
}
