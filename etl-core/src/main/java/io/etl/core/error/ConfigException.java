package io.etl.core.error;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The configuration or the pipeline definition is wrong. Raised before any I/O, and lists every
 * problem found at once, each with its key path.
 */
public final class ConfigException extends EtlException {

    private final List<ConfigProblem> problems;

    public ConfigException(List<ConfigProblem> problems) {
        this(problems, null);
    }

    public ConfigException(List<ConfigProblem> problems, Throwable cause) {
        super(render(problems), cause);
        if (problems.isEmpty()) {
            throw new IllegalArgumentException("a ConfigException needs at least one problem");
        }
        this.problems = List.copyOf(problems);
    }

    /** A single problem at {@code path}. */
    public static ConfigException of(String path, String message) {
        return new ConfigException(List.of(new ConfigProblem(path, message)));
    }

    /** A single problem at {@code path} caused by {@code cause}. */
    public static ConfigException of(String path, String message, Throwable cause) {
        return new ConfigException(List.of(new ConfigProblem(path, message)), cause);
    }

    /** Every problem, in the order found. */
    public List<ConfigProblem> problems() {
        return problems;
    }

    private static String render(List<ConfigProblem> problems) {
        if (problems.size() == 1) {
            return "invalid configuration: " + problems.get(0);
        }
        return problems.stream()
                .map(p -> "  " + p)
                .collect(Collectors.joining("\n", "invalid configuration (" + problems.size() + " problems):\n", ""));
    }
}
