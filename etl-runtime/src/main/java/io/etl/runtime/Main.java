package io.etl.runtime;

import io.etl.runtime.tools.ConsumeCommand;
import io.etl.runtime.tools.DeadLettersCommand;
import io.etl.runtime.tools.OffsetsCommand;
import io.etl.runtime.tools.ProduceCommand;
import io.etl.runtime.tools.TopicsCommand;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code etl} launcher: {@code run} a pipeline as a service, {@code validate} its configuration,
 * {@code check} the Kafka clusters are ready for it; and tools for its clusters:
 * {@code topics}, {@code produce}, {@code consume}, {@code offsets}, {@code dead-letters}.
 *
 * <pre>
 * java -cp etl-runtime.jar:my-pipeline.jar io.etl.runtime.Main run --config pipeline.yaml
 * java -jar etl-runtime.jar validate pipeline.yaml
 * java -cp etl-runtime.jar:my-pipeline.jar io.etl.runtime.Main check --config pipeline.yaml
 * java -jar etl-runtime.jar topics create --config pipeline.yaml
 * java -jar etl-runtime.jar consume orders-eu --config pipeline.yaml --max 10
 * </pre>
 *
 * <p>Exit codes: {@link ExitCodes}. Each command has {@code --help}.
 */
@Command(
        name = "etl",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = "Runs etl pipelines (Kafka to Kafka, at-least-once or exactly-once) as a service.",
        subcommands = {
            RunCommand.class,
            ValidateCommand.class,
            CheckCommand.class,
            TopicsCommand.class,
            ProduceCommand.class,
            ConsumeCommand.class,
            OffsetsCommand.class,
            DeadLettersCommand.class,
            CommandLine.HelpCommand.class
        },
        synopsisSubcommandLabel = "COMMAND",
        footer = {"", "Run `etl COMMAND --help` for a command's options."})
public final class Main implements Runnable {

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    /** Runs the command line and exits the JVM with the command's exit code. */
    public static void main(String[] args) {
        int code = execute(args);
        System.out.flush();
        System.err.flush();
        System.exit(code);
    }

    /** Runs the command line without exiting the JVM, writing to {@code System.out}/{@code System.err}. */
    public static int execute(String... args) {
        return commandLine().execute(args);
    }

    /** Runs the command line without exiting the JVM, writing picocli's output to the given streams (for tests). */
    public static int execute(PrintWriter out, PrintWriter err, String... args) {
        return CommandLines.execute(commandLine(), out, err, args);
    }

    /** The configured command line with every subcommand; usage errors exit {@link ExitCodes#USAGE}. */
    public static CommandLine commandLine() {
        return CommandLines.configure(new CommandLine(new Main()), ExitCodes.FAILED);
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command");
    }

    /** The project version, from a resource filtered by the build; shared by every command's {@code --version}. */
    public static final class Version implements CommandLine.IVersionProvider {
        /** The lines {@code --version} prints: {@code etl <version>}, then the Java version. */
        @Override
        public String[] getVersion() throws Exception {
            return CommandLines.versionOf("etl", Main.class).getVersion();
        }
    }
}
