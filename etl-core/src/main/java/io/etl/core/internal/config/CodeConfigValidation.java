package io.etl.core.internal.config;

import io.etl.core.error.ConfigProblem;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The constraint checks that loading a YAML file applies, for configuration records built in code
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
     * Whether this thread binds a YAML file ({@link ConfigBinding}): records built meanwhile leave their checks
     * to the loader, which validates what it binds and reports every problem of the file at once.
     */
    public static boolean binding() {
        return ConfigBinding.active();
    }

    /**
     * The problems of a configuration record its canonical constructor just built: every constraint it breaks
     * (the records it holds included) and every negative duration among its components, each at its snake_case
     * key, sorted by key.
     */
    public static List<ConfigProblem> constructed(Record config) {
        List<ConfigProblem> found = new ArrayList<>(problems(config, ""));
        for (RecordComponent component : config.getClass().getRecordComponents()) {
            if (component.getType() == Duration.class && valueOf(component, config) instanceof Duration d) {
                ConfigProblem problem = negative(component.getName(), d);
                if (problem != null) {
                    found.add(problem);
                }
            }
        }
        found.sort(ConfigValidator.BY_PATH);
        return found;
    }

    private static Object valueOf(RecordComponent component, Record config) {
        try {
            return component.getAccessor().invoke(config);
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("cannot read " + component.getName() + " of " + config.getClass(), e);
        }
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
