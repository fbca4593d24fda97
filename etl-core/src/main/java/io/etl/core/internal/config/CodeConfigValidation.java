package io.etl.core.internal.config;

import io.etl.core.error.ConfigException;
import io.etl.core.error.ConfigProblem;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The Bean Validation that loading a YAML file applies, for configuration records built in code
 * ({@code SinkPoolConfig.custom().shards(0)}): the same constraints, the same messages, a key path
 * made from {@code basePath}.
 */
public final class CodeConfigValidation {

    private CodeConfigValidation() {
    }

    /** Every constraint {@code bean} violates, each at {@code basePath} plus the property's snake_case path. */
    public static List<ConfigProblem> problems(Object bean, String basePath) {
        ProblemCollector problems = new ProblemCollector();
        ConfigValidator.validate(bean, basePath, problems);
        return problems.problems();
    }

    /**
     * Throws a {@link ConfigException} listing every constraint {@code bean} violates, each at
     * {@code basePath} plus the property's snake_case path (what a builder's {@code build()} checks, with
     * an empty base path, and what it checks of a nested record).
     */
    public static <T> T requireValid(T bean, String basePath) {
        List<ConfigProblem> problems = problems(bean, basePath);
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        return bean;
    }

    /**
     * Checks one value against the constraints {@code type} declares on {@code property}, as a builder's
     * setter does before storing it; the problem is at the property's snake_case key, with the message YAML
     * validation gives ({@code shards: must be between 1 and 256}).
     *
     * @throws ConfigException when the value breaks a constraint
     * @throws NullPointerException when {@code value} is null, naming the key
     */
    public static <V> V checkValue(Class<?> type, String property, V value) {
        String key = KeyPaths.snakeCase(property);
        Objects.requireNonNull(value, () -> key + " must not be null");
        List<ConfigProblem> problems = ConfigValidator.validateValue(type, property, value, key);
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        return value;
    }

    /** Checks that {@code value} is zero or more, as a duration written in YAML always is. */
    public static Duration checkDuration(String property, Duration value) {
        String key = KeyPaths.snakeCase(property);
        Objects.requireNonNull(value, () -> key + " must not be null");
        if (value.isNegative()) {
            throw ConfigException.of(key, "'" + value + "' " + DurationParser.NEGATIVE);
        }
        return value;
    }
}
