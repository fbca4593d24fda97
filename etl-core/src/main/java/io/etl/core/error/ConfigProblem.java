package io.etl.core.error;

import java.util.Objects;

/**
 * One configuration problem: the full key path (for example {@code sinks.eu.kafka.topic}) and what
 * is wrong with it. Messages never contain secret values.
 *
 * @param path    dotted key path, or a variable or file name where no key applies
 * @param message what is wrong, in plain words
 */
public record ConfigProblem(String path, String message) {

    public ConfigProblem {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(message, "message");
    }

    @Override
    public String toString() {
        return path.isEmpty() ? message : path + ": " + message;
    }
}
