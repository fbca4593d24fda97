package io.etl.runtime;

import io.etl.core.config.PipelineConfig;
import io.etl.core.error.ConfigException;
import io.etl.core.error.ConfigProblem;
import io.etl.runtime.internal.TrainingRun;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code validate FILE}: loads a pipeline YAML offline, exactly as a pipeline would
 * ({@link PipelineConfig#load(Path)}: environment interpolation, unknown keys, types, durations and sizes,
 * the Kafka client passthrough denylists, Bean Validation, the stop budget), and prints every problem on its
 * own line, key path first. No broker is contacted. Exit code 0 when the file is valid, 1 when it is not,
 * 2 for a usage error. Any program can add it as a picocli subcommand.
 *
 * <p>Problems never contain secret values: the loader names keys and variables, never what they hold.
 */
@Command(
        name = "validate",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = {
            "Checks a pipeline YAML file offline and prints every problem, one a line, key path first.",
            "The connectors on the class path (Kafka source and sink) check their sections too."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the file is valid", "1:the file has problems", "2:usage error"})
public final class ValidateCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "FILE", description = "The pipeline YAML file.")
    private Path file;

    @Option(
            names = "--training-run",
            description = {
                "After a valid file, also do what `run` does before it connects (the configuration preload, building",
                "the pipeline, the metrics), then exit: the training run of a class archive, e.g.",
                "java -XX:ArchiveClassesAtExit=app.jsa -jar pipeline.jar validate --training-run pipeline.yaml"
            })
    private boolean trainingRun;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        PipelineConfig config;
        try {
            config = PipelineConfig.load(file);
        } catch (ConfigException e) {
            for (ConfigProblem problem : e.problems()) {
                err.println(problem);
            }
            return ExitCodes.FAILED;
        }
        out.println("ok: " + file);
        if (trainingRun) {
            TrainingRun.run(config, Thread.currentThread().getContextClassLoader())
                    .forEach(step -> out.println("training run: " + step));
        }
        return ExitCodes.OK;
    }
}
