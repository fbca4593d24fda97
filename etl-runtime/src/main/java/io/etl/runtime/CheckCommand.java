package io.etl.runtime;

import io.etl.core.Pipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.core.error.ConfigException;
import io.etl.kafka.common.internal.ClusterInspection;
import io.etl.kafka.common.internal.Finding;
import io.etl.kafka.common.internal.ReadinessReport;
import io.etl.runtime.internal.DurationOption;
import io.etl.runtime.internal.Factories;
import io.etl.runtime.internal.PipelineUses;
import io.etl.runtime.internal.RegistryUses;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code check --config FILE}: before deploying, asks the Kafka clusters whether they are ready for the pipeline a
 * {@link PipelineFactory} builds: brokers reachable and accepting the credentials, topics present (with their
 * partition counts), the principal authorized to READ the source topics and group, WRITE the sink topics and
 * produce idempotently, and topics accepting the sinks' largest messages. Prints one line per finding, key
 * path first; exit 0 when ready, 1 when not, 2 for a usage or configuration error. Nothing is created or
 * changed on the cluster.
 */
@Command(
        name = "check",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = {
            "Asks the Kafka clusters whether they are ready for the pipeline.",
            "Checks that the brokers are reachable and accept the credentials, the topics exist (with their"
                    + " partition counts), the principal may READ the source topics and group, WRITE the sink topics"
                    + " and write idempotently, and no topic's max.message.bytes is below a sink's"
                    + " max_message_bytes.",
            "Prints one line per finding, key path first. Creates and changes nothing."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:the clusters are ready for the pipeline",
            "1:not ready: every problem is printed, key path first",
            "2:usage or configuration error; no cluster was asked"
        })
public final class CheckCommand implements Callable<Integer> {

    /** Default bound of the whole check. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

    @CommandLine.Mixin
    private PipelineOptions pipeline;

    @Option(
            names = "--timeout",
            paramLabel = "DURATION",
            defaultValue = "30s",
            converter = DurationOption.class,
            description = "Bounds the whole check, e.g. 10s or 500ms; clusters are checked in parallel."
                    + " Default: ${DEFAULT-VALUE}.")
    private Duration timeout;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        // the findings say what the clients would log, once and with the key path
        Logging.level("org.apache.kafka", "OFF");
        PrintWriter err = spec.commandLine().getErr();
        PipelineUses uses;
        Pipeline definition;
        try {
            PipelineConfig loaded = pipeline.load();
            PipelineFactory factory = pipeline.factory();
            Pipeline built = factory.create(loaded);
            if (built == null) {
                err.println("error: pipeline factory '" + factory.name() + "' ("
                        + factory.getClass().getName() + ") returned no pipeline");
                return ExitCodes.USAGE;
            }
            definition = built.build();
            uses = PipelineUses.of(definition, loaded);
        } catch (ConfigException | Factories.SelectionException | IllegalArgumentException e) {
            return pipeline.usageError(e, err::println);
        }
        return report(
                uses,
                RegistryUses.check(definition, timeout),
                spec.commandLine().getOut());
    }

    /**
     * Asks the clusters about {@code uses} and prints one line per finding, the schema registries' findings
     * ({@code registry}) after them, then the verdict.
     */
    private int report(PipelineUses uses, List<Finding> registry, PrintWriter out) {
        for (String path : uses.skipped()) {
            out.println(path + ": info: not a Kafka connector, not checked");
        }
        ReadinessReport report = ClusterInspection.inspect(uses.uses(), timeout);
        for (Finding problem : report.problems()) {
            out.println(problem);
        }
        for (Finding note : report.notes()) {
            out.println(note.path() + ": info: " + note.message());
        }
        int problems = report.problems().size();
        for (Finding finding : registry) {
            out.println(finding.problem() ? finding.toString() : finding.path() + ": info: " + finding.message());
            problems += finding.problem() ? 1 : 0;
        }
        out.println(problems == 0 ? "ready" : "not ready: " + problems + (problems == 1 ? " problem" : " problems"));
        return problems == 0 ? ExitCodes.OK : ExitCodes.FAILED;
    }
}
