package io.etl.core.internal.config;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the {@link ProblemHandler} needs while one section is bound; passed as a Jackson context attribute.
 *
 * @param basePath    path of the node being bound, for example {@code sinks.eu.kafka}
 * @param problems    where problems go
 * @param variables   variables behind interpolated values, by full path; such values are never echoed
 * @param siblingKeys keys valid next to the bound record's own (for suggestions), for example the pool keys
 */
record BindScope(
        String basePath, ProblemCollector problems, Map<String, List<String>> variables, Set<String> siblingKeys) {}
