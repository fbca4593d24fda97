package io.etl.core.internal.config;

import io.etl.core.error.ConfigException;
import io.etl.core.error.ConfigProblem;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Gathers every {@link ConfigProblem} of one load, in the order found, without duplicates. */
final class ProblemCollector {

    private final Set<ConfigProblem> problems = new LinkedHashSet<>();

    void add(String path, String message) {
        problems.add(new ConfigProblem(path, message));
    }

    void addAll(Collection<ConfigProblem> more) {
        problems.addAll(more);
    }

    /**
     * Whether a problem was already found at {@code path}, inside it or around it (a problem at
     * {@code a.b} touches {@code a}, {@code a.b} and {@code a.b[0]}); follow-up complaints about such a
     * value (a violation of a value already rejected) would only repeat it.
     */
    boolean touches(String path) {
        for (ConfigProblem problem : problems) {
            if (nested(problem.path(), path) || nested(path, problem.path())) {
                return true;
            }
        }
        return false;
    }

    private static boolean nested(String inner, String outer) {
        return inner.equals(outer)
                || outer.isEmpty()
                || inner.startsWith(outer)
                        && (inner.charAt(outer.length()) == '.' || inner.charAt(outer.length()) == '[');
    }

    int size() {
        return problems.size();
    }

    List<ConfigProblem> problems() {
        return List.copyOf(problems);
    }

    /** Throws one {@link ConfigException} listing every problem, if there is any. */
    void throwIfAny() {
        if (!problems.isEmpty()) {
            throw new ConfigException(List.copyOf(problems));
        }
    }
}
