package io.etl.testkit;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** What is written to {@code System.err}, where the tests' SLF4J binding logs, while an action runs. */
final class StandardError {

    /** An action that may throw. */
    @FunctionalInterface
    interface Action {
        void run() throws Exception;
    }

    private StandardError() {}

    /** Runs {@code action} with {@code System.err} captured, restores it, and returns what was written. */
    static String during(Action action) throws Exception {
        PrintStream original = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            action.run();
        } finally {
            System.setErr(original);
        }
        return captured.toString(StandardCharsets.UTF_8);
    }
}
