package io.etl.core.internal.config;

import io.etl.core.error.ConfigProblem;
import java.util.Comparator;
import java.util.List;

/**
 * Validation of bound records against their constraint annotations ({@link Constraints}); each violation becomes a
 * problem with its full YAML path in snake_case.
 */
final class ConfigValidator {

    /** The order problems are reported in: by key path, then by message. */
    static final Comparator<ConfigProblem> BY_PATH =
            Comparator.comparing(ConfigProblem::path).thenComparing(ConfigProblem::message);

    private ConfigValidator() {}

    /**
     * Validates {@code bean} (bound at {@code basePath}) and records every violation, except those about a
     * value that already has a problem.
     */
    static void validate(Object bean, String basePath, ProblemCollector problems) {
        if (bean == null) {
            return;
        }
        Constraints.check(bean).stream()
                .map(v -> new ConfigProblem(KeyPaths.join(basePath, v.path()), v.message()))
                .sorted(BY_PATH)
                .filter(p -> !problems.touches(p.path()))
                .forEach(p -> problems.add(p.path(), p.message()));
    }

    /**
     * The problems {@code value} would have as {@code type}'s {@code property}, each at the property's
     * snake_case path ({@code topics[1]} for an element).
     */
    static List<ConfigProblem> validateValue(Class<?> type, String property, Object value) {
        return Constraints.checkValue(type, property, value).stream()
                .map(v -> new ConfigProblem(v.path(), v.message()))
                .sorted(BY_PATH)
                .toList();
    }
}
