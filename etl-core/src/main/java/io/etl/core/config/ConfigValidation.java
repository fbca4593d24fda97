package io.etl.core.config;

import io.etl.core.error.ConfigException;
import io.etl.core.error.ConfigProblem;
import io.etl.core.internal.config.CodeConfigValidation;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * The checks a configuration loaded from YAML goes through, for configuration records built in code: the
 * canonical constructors and the builders of the core's and the connectors' records use it, so a value out of
 * range fails at once, with the message and the snake_case key YAML validation gives
 * ({@code shards: must be between 1 and 256}), and no record instance breaks a rule however it was built.
 */
public final class ConfigValidation {

    private ConfigValidation() {}

    /**
     * Checks one value against the constraints {@code type} declares on its record component
     * {@code property}.
     *
     * @return the value, for chaining
     * @throws ConfigException when the value breaks a constraint
     * @throws NullPointerException when {@code value} is null, naming the key
     */
    public static <V> V checkValue(Class<?> type, String property, V value) {
        requireNonNull(property, value);
        List<ConfigProblem> problems = CodeConfigValidation.problems(type, property, value);
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        return value;
    }

    /**
     * Checks that a duration is zero or more, as one written in YAML always is.
     *
     * @return the value, for chaining
     * @throws ConfigException when it is negative
     * @throws NullPointerException when {@code value} is null, naming the key
     */
    public static Duration checkDuration(String property, Duration value) {
        requireNonNull(property, value);
        ConfigProblem problem = CodeConfigValidation.negative(property, value);
        if (problem != null) {
            throw new ConfigException(List.of(problem));
        }
        return value;
    }

    /**
     * Checks a non-null setting that has no constraint of its own.
     *
     * @return the value, for chaining
     * @throws NullPointerException when {@code value} is null, naming the key
     */
    public static <V> V requireNonNull(String property, V value) {
        return Objects.requireNonNull(value, () -> CodeConfigValidation.key(property) + " must not be null");
    }

    /**
     * Checks a configuration record as its canonical constructor must, once every component holds its value
     * (defaults applied): every constraint of the record (the records it holds included) and no negative
     * duration, each problem at its snake_case key. While this thread binds a YAML file it checks nothing: the
     * loader validates each section it binds and reports every problem of the file in one exception.
     *
     * <pre>{@code
     * public BatchConfig(Integer maxRecords, DataSize maxBytes, Duration linger) {
     *     this.maxRecords = maxRecords == null ? DEFAULT_MAX_RECORDS : maxRecords;
     *     this.maxBytes = maxBytes == null ? DEFAULT_MAX_BYTES : maxBytes;
     *     this.linger = linger == null ? DEFAULT_LINGER : linger;
     *     ConfigValidation.checkConstructed(this);
     * }
     * }</pre>
     *
     * @throws ConfigException listing every problem
     */
    public static void checkConstructed(Record config) {
        if (!CodeConfigValidation.binding()) {
            requireNone(CodeConfigValidation.constructed(config));
        }
    }

    /**
     * {@link #checkConstructed(Record)}, then, when the record breaks none of its constraints, its own
     * {@code rules} for what a constraint cannot say (settings that depend on each other), reporting problems at
     * keys relative to the record. Like the rest, the rules wait while this thread binds a YAML file: its loader
     * applies them to what it bound.
     *
     * @throws ConfigException listing every problem
     */
    public static <T extends Record> void checkConstructed(T config, Function<T, List<ConfigProblem>> rules) {
        checkConstructed(config);
        if (!CodeConfigValidation.binding()) {
            requireNone(rules.apply(config));
        }
    }

    /**
     * Checks every constraint of a whole record, nested records included, each problem at {@code basePath}
     * plus the property's snake_case path ({@code ""} for a record's own {@code build()}).
     *
     * @return the record, for chaining
     * @throws ConfigException listing every problem
     */
    public static <T> T requireValid(T config, String basePath) {
        List<ConfigProblem> problems = CodeConfigValidation.problems(config, basePath);
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        return config;
    }

    /**
     * Throws the problems a connector's own check found in a whole record checked at the empty base path
     * (its rules beyond Bean Validation: minimum timeouts, a passthrough denylist, settings that depend on
     * each other).
     *
     * @throws ConfigException listing every problem, if there is any
     */
    public static void requireNone(List<ConfigProblem> problems) {
        List<ConfigProblem> relative =
                problems.stream().map(ConfigValidation::relative).toList();
        if (!relative.isEmpty()) {
            throw new ConfigException(relative);
        }
    }

    /**
     * Throws those of {@code problems} (found as by {@link #requireNone}) that are about {@code property}
     * or a key inside it: what a builder's setter checks of a candidate record.
     *
     * @throws ConfigException listing those problems, if there is any
     */
    public static void requireNoneAt(String property, List<ConfigProblem> problems) {
        String key = CodeConfigValidation.key(property);
        requireNone(problems.stream()
                .map(ConfigValidation::relative)
                .filter(p -> p.path().equals(key)
                        || p.path().startsWith(key + ".")
                        || p.path().startsWith(key + "["))
                .toList());
    }

    private static ConfigProblem relative(ConfigProblem problem) {
        return problem.path().startsWith(".")
                ? new ConfigProblem(problem.path().substring(1), problem.message())
                : problem;
    }
}
