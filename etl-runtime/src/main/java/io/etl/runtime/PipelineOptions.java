package io.etl.runtime;

import io.etl.core.config.PipelineConfig;
import io.etl.core.error.ConfigException;
import io.etl.core.error.ConfigProblem;
import io.etl.runtime.internal.Factories;
import java.nio.file.Path;
import java.util.function.Consumer;
import picocli.CommandLine.Option;

/**
 * The options that name the pipeline a command works on, {@code --config FILE} and {@code --pipeline NAME}
 * (a picocli mixin of {@code run} and {@code check}), with the loading of the file, the choice of the factory,
 * and how a failure of either is reported.
 */
final class PipelineOptions {

    @Option(names = "--config", required = true, paramLabel = "FILE", description = "The pipeline YAML file.")
    private Path config;

    @Option(
            names = "--pipeline",
            paramLabel = "NAME",
            description = "Which pipeline factory to ${COMMAND-NAME}; optional when exactly one is on the class path.")
    private String pipeline;

    /** The {@code --config} file, loaded and validated as a pipeline loads it. */
    PipelineConfig load() {
        return PipelineConfig.load(config);
    }

    /** The {@code --config} file. */
    Path file() {
        return config;
    }

    /** The factory {@code --pipeline} names among those on the class path, or the only one. */
    PipelineFactory factory() {
        return Factories.discover(Thread.currentThread().getContextClassLoader())
                .select(pipeline);
    }

    /**
     * Prints why the pipeline could not be loaded or chosen: for an invalid configuration the file and then
     * every problem, one an indented line; otherwise the failure's message.
     *
     * @return {@link ExitCodes#USAGE}, the exit code of such a failure
     */
    int usageError(RuntimeException failure, Consumer<String> err) {
        if (failure instanceof ConfigException invalid) {
            err.accept("error: invalid configuration in " + config);
            for (ConfigProblem problem : invalid.problems()) {
                err.accept("  " + problem);
            }
        } else {
            err.accept("error: " + failure.getMessage());
        }
        return ExitCodes.USAGE;
    }
}
