package io.etl.kafka.common.internal;

import java.util.Objects;

/**
 * One line of a readiness report: a problem that keeps the cluster from being ready for the pipeline, or a
 * note (a partition count, something that could not be verified).
 *
 * @param path    the key path it concerns, e.g. {@code sinks.eu.kafka.topic}
 * @param message what was found
 * @param problem whether it makes the cluster not ready
 */
public record Finding(String path, String message, boolean problem) {

    /** Validates. */
    public Finding {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(message, "message");
    }

    static Finding problem(String path, String message) {
        return new Finding(path, message, true);
    }

    static Finding note(String path, String message) {
        return new Finding(path, message, false);
    }

    /** {@code path: message}. */
    @Override
    public String toString() {
        return path + ": " + message;
    }
}
