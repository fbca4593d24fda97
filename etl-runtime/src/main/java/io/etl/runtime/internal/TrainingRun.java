package io.etl.runtime.internal;

import io.etl.core.Pipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.runtime.PipelineFactory;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * What {@code validate --training-run} does after a valid file: everything {@code run} does before it connects to
 * a broker, so that a JVM recording a class archive ({@code -XX:ArchiveClassesAtExit}) archives those classes too.
 * It waits for the configuration preload (the validator's metadata, the Kafka clients' configuration and protocol
 * tables), builds the pipeline when exactly one factory is on the class path, and sets up the metrics registry with
 * the JVM's meters and one scrape. Nothing is started and no broker is contacted.
 */
public final class TrainingRun {

    /** How long the preload may still take once the file is valid. */
    private static final Duration PRELOAD_WAIT = Duration.ofSeconds(30);

    private TrainingRun() {}

    /**
     * Runs the training steps for {@code config}; returns what each did, one line a step, for the command's output.
     * A step that cannot run here (no single factory, a factory that fails) is reported and skipped.
     */
    public static List<String> run(PipelineConfig config, ClassLoader loader) {
        return run(config, () -> Factories.discover(loader));
    }

    /** {@link #run(PipelineConfig, ClassLoader)} with the factories {@code factories} finds. */
    static List<String> run(PipelineConfig config, Supplier<Factories> factories) {
        List<String> steps = new ArrayList<>();
        steps.add(
                PipelineConfig.awaitPreload(PRELOAD_WAIT)
                        ? "configuration preload finished"
                        : "configuration preload still running after " + PRELOAD_WAIT.toSeconds() + " s");
        steps.add(buildPipeline(config, factories));
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (JvmMeters jvm = new JvmMeters()) {
            jvm.bindTo(registry);
            long lines = registry.scrape().lines().count();
            steps.add("metrics registry with the JVM's meters: " + lines + " lines scraped");
        } finally {
            registry.close();
        }
        return steps;
    }

    private static String buildPipeline(PipelineConfig config, Supplier<Factories> found) {
        Factories factories;
        try {
            factories = found.get();
        } catch (Factories.SelectionException e) {
            return "pipeline not built: " + e.getMessage();
        }
        List<String> names = factories.names();
        if (names.size() != 1) {
            return "pipeline not built: " + names.size() + " pipeline factories on the class path " + names;
        }
        PipelineFactory factory = factories.select(null);
        try {
            Pipeline pipeline = factory.create(config);
            if (pipeline == null) {
                return "pipeline not built: factory '" + factory.name() + "' returned none";
            }
            pipeline.build();
            return "pipeline '" + factory.name() + "' built";
        } catch (RuntimeException e) {
            return "pipeline not built: factory '" + factory.name() + "' failed: " + e.getMessage();
        }
    }
}
