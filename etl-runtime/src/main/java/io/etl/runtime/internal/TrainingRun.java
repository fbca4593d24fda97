package io.etl.runtime.internal;

import io.etl.core.config.PipelineConfig;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code validate --training-run} does once the file is valid and the pipeline built from it: the rest of what
 * {@code run} does before it connects to a broker, so that a JVM recording a class archive
 * ({@code -XX:ArchiveClassesAtExit}) archives those classes too. It waits for the configuration preload (the
 * validator's metadata, the Kafka clients' configuration and protocol tables) and sets up the metrics registry with
 * the JVM's meters and one scrape. Nothing is started and no broker is contacted.
 */
public final class TrainingRun {

    /** How long the preload may still take once the file is valid. */
    private static final Duration PRELOAD_WAIT = Duration.ofSeconds(30);

    private TrainingRun() {}

    /** Runs the training steps; returns what each did, one line a step, for the command's output. */
    public static List<String> run() {
        List<String> steps = new ArrayList<>();
        steps.add(
                PipelineConfig.awaitPreload(PRELOAD_WAIT)
                        ? "configuration preload finished"
                        : "configuration preload still running after " + PRELOAD_WAIT.toSeconds() + " s");
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
}
