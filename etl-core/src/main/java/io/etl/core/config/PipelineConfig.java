package io.etl.core.config;

import io.etl.core.error.ConfigException;
import io.etl.core.internal.config.ConfigLoader;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * A whole pipeline configuration: the {@code pipeline}, {@code source}, {@code sinks},
 * {@code dead_letter}, {@code checkpoint} and {@code metrics} sections of one YAML file.
 *
 * <pre>{@code
 * PipelineConfig config = PipelineConfig.load(Path.of("kafka_to_kafka_split.yaml"));
 * KafkaSink.from(config.sink("eu")) ...
 * }</pre>
 *
 * <p>Loading substitutes {@code ${VAR}}, {@code ${VAR:-default}} and {@code ${VAR:?message}}, rejects
 * unknown keys with their full path, parses durations ({@code 250ms}, {@code 30s}, {@code 5m}) and sizes
 * ({@code 512KiB}, {@code 1MB}), validates every record, and throws one {@link ConfigException} listing
 * every problem found.
 *
 * @param pipeline   the {@code pipeline} section
 * @param sources    the {@code source} entries by name
 * @param sinks      the {@code sinks} entries by name
 * @param checkpoint the {@code checkpoint} section
 * @param metrics    the {@code metrics} section
 * @param deadLetter the {@code dead_letter} section: where every stage with policy {@code dead_letter} sends
 *                   the records it rejects, shaped like a sink entry ({@code dead_letter: {kafka: {...}}});
 *                   empty when absent
 */
public record PipelineConfig(
        PipelineSection pipeline,
        Map<String, SourceSection> sources,
        Map<String, SinkSection> sinks,
        CheckpointConfig checkpoint,
        MetricsConfig metrics,
        Optional<SinkSection> deadLetter) {

    /** The key of the top-level dead-letter section, and the name of the sink it becomes. */
    public static final String DEAD_LETTER = "dead_letter";

    public PipelineConfig {
        pipeline = pipeline == null ? PipelineSection.defaults() : pipeline;
        sources = sources == null ? Map.of() : Map.copyOf(sources);
        sinks = sinks == null ? Map.of() : Map.copyOf(sinks);
        checkpoint = checkpoint == null ? CheckpointConfig.defaults() : checkpoint;
        metrics = metrics == null ? MetricsConfig.defaults() : metrics;
        deadLetter = deadLetter == null ? Optional.empty() : deadLetter;
    }

    /** A configuration without a {@code dead_letter} section. */
    public PipelineConfig(
            PipelineSection pipeline,
            Map<String, SourceSection> sources,
            Map<String, SinkSection> sinks,
            CheckpointConfig checkpoint,
            MetricsConfig metrics) {
        this(pipeline, sources, sinks, checkpoint, metrics, Optional.empty());
    }

    /** Defaults everywhere and no source or sink sections: for pipelines built entirely in code. */
    public static PipelineConfig defaults() {
        return new PipelineConfig(null, null, null, null, null);
    }

    /** Loads a YAML file, interpolating from the process environment. */
    public static PipelineConfig load(Path file) {
        return ConfigLoader.load(file, System::getenv);
    }

    /** Parses YAML text, interpolating from the process environment. */
    public static PipelineConfig parse(String yaml) {
        return ConfigLoader.parse(yaml, System::getenv);
    }

    /** Parses YAML text, interpolating from {@code env} (which returns null for an unset variable). */
    public static PipelineConfig parse(String yaml, Function<String, String> env) {
        return ConfigLoader.parse(yaml, env);
    }

    /** The {@code source.<name>} entry, or a {@link ConfigException} naming what is missing. */
    public SourceSection source(String name) {
        SourceSection section = sources.get(name);
        if (section == null) {
            throw ConfigException.of("source." + name, "no such source section (have: " + sources.keySet() + ")");
        }
        return section;
    }

    /** The {@code sinks.<name>} entry, or a {@link ConfigException} naming what is missing. */
    public SinkSection sink(String name) {
        SinkSection section = sinks.get(name);
        if (section == null) {
            throw ConfigException.of("sinks." + name, "no such sink section (have: " + sinks.keySet() + ")");
        }
        return section;
    }

    /** A copy with another checkpoint section. */
    public PipelineConfig withCheckpoint(CheckpointConfig value) {
        return new PipelineConfig(pipeline, sources, sinks, value, metrics, deadLetter);
    }

    /** A copy with another {@code dead_letter} section (null for none), for configurations built in code. */
    public PipelineConfig withDeadLetter(SinkSection value) {
        return new PipelineConfig(pipeline, sources, sinks, checkpoint, metrics, Optional.ofNullable(value));
    }
}
