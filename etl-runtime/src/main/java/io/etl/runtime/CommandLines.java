package io.etl.runtime;

import java.io.PrintWriter;
import picocli.CommandLine;

/**
 * How etl's programs set up and run a picocli command line, so that a program built on the runtime (the examples'
 * {@code etl-examples}, say) behaves like {@link Main}: case-insensitive enum values, an exception from a command
 * printed as one {@code error:} line with a chosen exit code, and output flushed before the code is returned.
 *
 * <pre>{@code
 * CommandLine cli = CommandLines.configure(new CommandLine(new MyProgram()), ExitCodes.FAILED);
 * int code = CommandLines.execute(cli, out, err, args);
 * }</pre>
 */
public final class CommandLines {

    private CommandLines() {
    }

    /** {@code cli}, set up; an exception a command throws prints {@code error: <message>} and exits {@code failureExitCode}. */
    public static CommandLine configure(CommandLine cli, int failureExitCode) {
        return cli.setCaseInsensitiveEnumValuesAllowed(true)
                .setExecutionExceptionHandler((e, line, parsed) -> {
                    line.getErr().println("error: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
                    return failureExitCode;
                });
    }

    /** Runs {@code cli} without exiting the JVM, writing to the given streams, which are flushed before returning. */
    public static int execute(CommandLine cli, PrintWriter out, PrintWriter err, String... args) {
        cli.setOut(out);
        cli.setErr(err);
        try {
            return cli.execute(args);
        } finally {
            out.flush();
            err.flush();
        }
    }
}
