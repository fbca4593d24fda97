package io.etl.bench;

import java.io.File;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/** Starts the races' forked contestants. */
public final class Forks {

    private Forks() {}

    /** Starts {@code command} with {@code environment} added to this process's, its output and errors in {@code log}. */
    public static Process withLog(List<String> command, File log, Map<String, String> environment) throws IOException {
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log);
        builder.environment().putAll(environment);
        return builder.start();
    }
}
