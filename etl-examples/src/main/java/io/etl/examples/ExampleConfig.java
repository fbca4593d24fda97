package io.etl.examples;

import io.etl.core.Pipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.core.error.ConfigException;
import io.etl.core.error.ConfigProblem;
import java.io.PrintStream;
import java.util.function.Function;

/** How the example commands check their YAML before they start anything, and print what is wrong with it. */
public final class ExampleConfig {

    private ExampleConfig() {}

    /**
     * The configuration {@code yaml} parsed with {@code env}, once {@code pipeline} was built from it (which reads
     * every section it needs); null after printing its problems to {@code err}.
     */
    public static PipelineConfig parse(
            String yaml, Function<String, String> env, Function<PipelineConfig, Pipeline> pipeline, PrintStream err) {
        try {
            PipelineConfig config = PipelineConfig.parse(yaml, env);
            pipeline.apply(config);
            return config;
        } catch (ConfigException e) {
            printProblems(e, err);
            return null;
        }
    }

    /** {@code error: invalid configuration}, then each problem on an indented line. */
    public static void printProblems(ConfigException e, PrintStream err) {
        err.println("error: invalid configuration");
        for (ConfigProblem problem : e.problems()) {
            err.println("  " + problem);
        }
    }
}
