package io.etl.core.internal.config;

import io.etl.core.error.ConfigProblem;
import java.util.List;

/**
 * The Bean Validation that loading a YAML file applies, for configuration records built in code
 * ({@code SinkPoolConfig.defaults().withShards(0)}): the same constraints, the same messages, a key path
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
}
