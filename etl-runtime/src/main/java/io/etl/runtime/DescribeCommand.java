package io.etl.runtime;

import io.etl.core.Pipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.core.error.ConfigException;
import io.etl.runtime.internal.Factories;
import io.etl.runtime.internal.Topology;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code describe --config FILE}: prints the topology of the pipeline a {@link PipelineFactory} builds from the file,
 * without contacting a broker: the source, each operator with its error policy, the split and its branches, the
 * sinks with their topics, and where dead letters go. {@code --format mermaid} prints a Mermaid flowchart instead,
 * which GitHub and most Markdown renderers draw. A running pipeline serves the same at {@code /topology}.
 */
@Command(
        name = "describe",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = {
            "Prints the pipeline's topology: source, operators with their error policies, split branches, sinks"
                    + " and their topics, dead letters.",
            "Reads the file and builds the pipeline; contacts no broker. A running pipeline serves the same at"
                    + " /topology (?format=mermaid)."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:printed", "2:usage or configuration error"})
public final class DescribeCommand implements Callable<Integer> {

    /** How the topology is printed. */
    public enum Format {
        /** One line per stage, indented as records flow. */
        TEXT,
        /** A Mermaid flowchart. */
        MERMAID
    }

    @CommandLine.Mixin
    private PipelineOptions pipeline;

    @Option(
            names = "--format",
            paramLabel = "FORMAT",
            defaultValue = "text",
            description = "text or mermaid. Default: ${DEFAULT-VALUE}.")
    private Format format;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        Topology topology;
        try {
            PipelineConfig loaded = pipeline.load();
            PipelineFactory factory = pipeline.factory();
            Pipeline built = factory.create(loaded);
            if (built == null) {
                err.println("error: pipeline factory '" + factory.name() + "' ("
                        + factory.getClass().getName() + ") returned no pipeline");
                return ExitCodes.USAGE;
            }
            topology = Topology.of(built.build(), loaded);
        } catch (ConfigException | Factories.SelectionException | IllegalArgumentException e) {
            return pipeline.usageError(e, err::println);
        }
        spec.commandLine().getOut().print(format == Format.MERMAID ? topology.mermaid() : topology.text());
        return ExitCodes.OK;
    }
}
