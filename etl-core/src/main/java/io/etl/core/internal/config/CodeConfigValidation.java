package io.etl.core.internal.config;

import io.etl.core.error.ConfigProblem;
import java.time.Duration;
import java.util.List;

/**
 * The Bean Validation that loading a YAML file applies, for configuration records built in code
 * ({@code SinkPoolConfig.custom().shards(0)}): the same constraints, the same messages, a key path
 * made from {@code basePath}.
 */
public final class CodeConfigValidation {

    private CodeConfigValidation() {}

    /** Every constraint {@code bean} violates, each at {@code basePath} plus the property's snake_case path. */
    public static List<ConfigProblem> problems(Object bean, String basePath) {
        ProblemCollector problems = new ProblemCollector();
        ConfigValidator.validate(bean, basePath, problems);
        return problems.problems();
    }

    /**
     * The problems {@code value} would have as {@code type}'s {@code property}, each at the property's
     * snake_case key ({@code topics[1]} for an element).
     */
    public static List<ConfigProblem> problems(Class<?> type, String property, Object value) {
        return ConfigValidator.validateValue(type, property, value);
    }

    /** The problem of a negative duration at {@code property}, worded as when YAML holds one; null if none. */
    public static ConfigProblem negative(String property, Duration value) {
        return value.isNegative()
                ? new ConfigProblem(key(property), "'" + value + "' " + DurationParser.NEGATIVE)
                : null;
    }

    /** {@code maxRecords} as {@code max_records}. */
    public static String key(String property) {
        return KeyPaths.snakeCase(property);
    }
}
