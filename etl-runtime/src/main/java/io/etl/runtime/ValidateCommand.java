package io.etl.runtime;

import io.etl.core.Pipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.core.error.ConfigException;
import io.etl.core.error.ConfigProblem;
import io.etl.runtime.internal.Factories;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code validate FILE}: checks a pipeline YAML offline as {@code run} would before it connects. It loads the file
 * ({@link PipelineConfig#load(Path)}: environment interpolation, unknown keys, types, durations and sizes, the
 * Kafka client passthrough denylists, Bean Validation, the stop budget), then builds the pipeline of the
 * {@link PipelineFactory} on the class path from it ({@code --pipeline NAME} when there are several), so that a
 * section the pipeline reads but the file lacks is a problem too. Every problem is printed on its own line, key
 * path first. No broker is contacted. Exit code 0 when the file is valid, 1 when it is not, 2 for a usage error.
 * Any program can add it as a picocli subcommand.
 *
 * <p>Without a factory on the class path only the file itself is checked, and the output says so. Problems never
 * contain secret values: the loader names keys and variables, never what they hold.
 */
@Command(
        name = "validate",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = {
            "Checks a pipeline YAML file offline, as `run` would before it connects.",
            "The connectors on the class path check their sections, then the pipeline is built from the file,"
                    + " so a section it reads but the file lacks is a problem too.",
            "Prints every problem on its own line, key path first."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the file is valid", "1:the file has problems", "2:usage error"})
public final class ValidateCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "FILE", description = "The pipeline YAML file.")
    private Path file;

    @Option(
            names = "--pipeline",
            paramLabel = "NAME",
            description = "Which pipeline factory to build from the file; optional when at most one is on the class"
                    + " path.")
    private String pipeline;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        PipelineFactory factory;
        try {
            Factories factories = Factories.discover(Thread.currentThread().getContextClassLoader());
            factory = pipeline == null && factories.names().isEmpty() ? null : factories.select(pipeline);
        } catch (Factories.SelectionException e) {
            err.println("error: " + e.getMessage());
            return ExitCodes.USAGE;
        }
        PipelineConfig config;
        String built;
        try {
            config = PipelineConfig.load(file);
            built = factory == null ? null : build(factory, config);
        } catch (ConfigException e) {
            for (ConfigProblem problem : e.problems()) {
                err.println(problem);
            }
            return ExitCodes.FAILED;
        } catch (IllegalStateException e) {
            err.println("error: " + e.getMessage());
            return ExitCodes.FAILED;
        }
        if (built == null) {
            out.println("ok: " + file);
            out.println("note: no pipeline factory on the class path; the sections a pipeline reads were not"
                    + " matched against the file");
        } else {
            out.println("ok: " + file + " (pipeline '" + built + "')");
        }
        return ExitCodes.OK;
    }

    /**
     * Builds the pipeline of {@code factory} from {@code config}; returns the factory's name.
     *
     * @throws ConfigException       for a section or value the pipeline needs and the file lacks
     * @throws IllegalStateException when the factory fails otherwise, naming it and the file
     */
    private String build(PipelineFactory factory, PipelineConfig config) {
        try {
            Pipeline created = factory.create(config);
            if (created == null) {
                throw new IllegalStateException("it returned no pipeline");
            }
            created.build();
            return factory.name();
        } catch (ConfigException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new IllegalStateException(
                    "pipeline '" + factory.name() + "' (" + factory.getClass().getName() + ") cannot be built from "
                            + file + ": " + e.getMessage(),
                    e);
        }
    }
}
