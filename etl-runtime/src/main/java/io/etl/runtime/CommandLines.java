package io.etl.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.util.Objects;
import java.util.Properties;
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
 *
 * <p>Picocli instantiates a {@code versionProvider} class itself, so a program keeps a small class of its own that
 * delegates to {@link #versionOf(String, Class)}:
 *
 * <pre>{@code
 * public static final class Version implements CommandLine.IVersionProvider {
 *     public String[] getVersion() throws Exception {
 *         return CommandLines.versionOf("my-program", MyProgram.class).getVersion();
 *     }
 * }
 * }</pre>
 */
public final class CommandLines {

    private CommandLines() {}

    /** {@code cli}, set up; an exception a command throws prints {@code error: <message>} and exits {@code failureExitCode}. */
    public static CommandLine configure(CommandLine cli, int failureExitCode) {
        return cli.setCaseInsensitiveEnumValuesAllowed(true).setExecutionExceptionHandler((e, line, parsed) -> {
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

    /**
     * The {@code --version} lines of {@code program}: its name and the {@code version} property of the
     * {@code version.properties} resource beside {@code resourceAnchor} (filtered by the build; {@code unknown} when
     * absent), then the Java version and VM running it.
     */
    public static CommandLine.IVersionProvider versionOf(String program, Class<?> resourceAnchor) {
        Objects.requireNonNull(program, "program");
        Objects.requireNonNull(resourceAnchor, "resourceAnchor");
        return () -> new String[] {
            program + " " + projectVersion(resourceAnchor),
            "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ")"
        };
    }

    private static String projectVersion(Class<?> resourceAnchor) throws IOException {
        Properties p = new Properties();
        try (InputStream in = resourceAnchor.getResourceAsStream("version.properties")) {
            if (in != null) {
                p.load(in);
            }
        }
        return p.getProperty("version", "unknown");
    }
}
