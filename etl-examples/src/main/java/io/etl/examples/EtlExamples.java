package io.etl.examples;

import io.etl.examples.avro.AvroToAvroCommand;
import io.etl.examples.split.KafkaToKafkaSplitCommand;
import io.etl.runtime.CommandLines;
import io.etl.runtime.ValidateCommand;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code etl-examples} program: one subcommand per runnable example, plus {@code validate}.
 *
 * <pre>{@code
 * java -jar etl-examples/target/etl-examples.jar kafka_to_kafka_split            # embedded broker, 100,000 orders
 * KAFKA_BROKERS=k1:9092 java -jar etl-examples.jar kafka_to_kafka_split         # your cluster, until SIGTERM
 * java -jar etl-examples/target/etl-examples.jar avro_to_avro                   # embedded broker and registry
 * java -jar etl-examples/target/etl-examples.jar validate my-pipeline.yaml      # offline config check
 * }</pre>
 *
 * <p>Exit codes: 0 success, 1 failure (an invalid configuration, a failed pipeline), 2 a usage error.
 * {@code validate} is the runtime's ({@link ValidateCommand}); the jar also runs the runtime itself:
 * {@code java -cp etl-examples.jar io.etl.runtime.Main run --config kafka_to_kafka_split.yaml}.
 */
@Command(
        name = "etl-examples",
        mixinStandardHelpOptions = true,
        versionProvider = EtlExamples.Version.class,
        description = "Runnable examples of the etl framework (Kafka to Kafka pipelines).",
        subcommands = {
            KafkaToKafkaSplitCommand.class,
            AvroToAvroCommand.class,
            ValidateCommand.class,
            CommandLine.HelpCommand.class
        },
        synopsisSubcommandLabel = "COMMAND",
        footer = {"", "Run `etl-examples COMMAND --help` for a command's options."})
public final class EtlExamples implements Runnable {

    /** Exit code for a usage error (picocli's default). */
    public static final int EXIT_USAGE = CommandLine.ExitCode.USAGE;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    /** Runs the program and exits the JVM with the command's exit code. */
    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /**
     * Runs the program without exiting the JVM, writing to {@code System.out}/{@code System.err}.
     *
     * @return the exit code
     */
    public static int execute(String... args) {
        return commandLine().execute(args);
    }

    /**
     * Runs the program without exiting the JVM, writing to the given streams (for tests).
     *
     * @return the exit code
     */
    public static int execute(PrintWriter out, PrintWriter err, String... args) {
        return CommandLines.execute(commandLine(), out, err, args);
    }

    /** The configured command line, with every subcommand. */
    public static CommandLine commandLine() {
        return CommandLines.configure(new CommandLine(new EtlExamples()), CommandLine.ExitCode.SOFTWARE);
    }

    @Override
    public void run() {
        // no subcommand: show what there is, as a usage error
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command");
    }

    /** The project version, from a resource filtered by the build; shared by every command's {@code --version}. */
    public static final class Version implements CommandLine.IVersionProvider {
        /** The lines {@code --version} prints: {@code etl-examples <version>}, then the Java version. */
        @Override
        public String[] getVersion() throws Exception {
            return CommandLines.versionOf("etl-examples", EtlExamples.class).getVersion();
        }
    }
}
