package io.etl.runtime.tools;

import io.etl.core.error.ConfigException;
import io.etl.core.error.ConfigProblem;
import io.etl.runtime.ExitCodes;
import io.etl.runtime.Logging;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;

/**
 * What every tool shares: its output streams, and how a failure ends it: one {@code error:} line and exit 1 for
 * a cluster or an operation that failed, exit 2 for a wrong option or file (an invalid YAML lists every problem).
 */
abstract class ToolCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public final Integer call() throws Exception {
        // the tools report what failed themselves, once; the clients' own lines would repeat it
        Logging.level("org.apache.kafka", "OFF");
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try {
            return run(out, err);
        } catch (ToolException e) {
            err.println("error: " + e.getMessage());
            return e.exitCode();
        } catch (ConfigException e) {
            err.println("error: invalid configuration");
            for (ConfigProblem problem : e.problems()) {
                err.println("  " + problem);
            }
            return ExitCodes.USAGE;
        } finally {
            out.flush();
            err.flush();
        }
    }

    /** Does the work; returns the exit code. */
    abstract int run(PrintWriter out, PrintWriter err) throws Exception;

    /** The format {@code name} of {@code option} ({@code --format}, ...); an unknown one is a usage error. */
    RecordFormat format(String option, String name) {
        try {
            return RecordFormats.named(name);
        } catch (IllegalArgumentException e) {
            throw usage(option + ": " + e.getMessage());
        }
    }

    /** A usage error of this command, as picocli reports a wrong option. */
    CommandLine.ParameterException usage(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }
}
