package io.etl.core.config;

import io.etl.core.error.ConfigException;
import io.etl.core.internal.config.ConfigLoader;
import io.etl.core.internal.config.PipelineRules;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * A whole pipeline configuration: the {@code pipeline}, {@code source}, {@code sinks},
 * {@code dead_letter}, {@code retry}, {@code checkpoint} and {@code metrics} sections of one YAML file.
 *
 * <pre>{@code
 * PipelineConfig config = PipelineConfig.load(Path.of("kafka_to_kafka_split.yaml"));
 * KafkaSink.from(config.sink("eu")) ...
 * }</pre>
 *
 * <p>In code, build one with {@link #custom()} or {@link #from(PipelineConfig)}:
 * {@code PipelineConfig.custom().checkpoint(CheckpointConfig.custom().interval(Duration.ofMillis(100)).build()).build()}.
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
 * @param retry      the {@code retry} section: the retry topics where every stage with policy {@code retry} sends
 *                   the records that fail, and the connector section that writes them; empty when absent
 */
public record PipelineConfig(
        PipelineSection pipeline,
        Map<String, SourceSection> sources,
        Map<String, SinkSection> sinks,
        CheckpointConfig checkpoint,
        MetricsConfig metrics,
        Optional<SinkSection> deadLetter,
        Optional<RetrySection> retry) {

    /** The key of the top-level dead-letter section, and the name of the sink it becomes. */
    public static final String DEAD_LETTER = "dead_letter";

    /**
     * The sections, each null one at its default (no sources, sinks or dead-letter section). Loading a file
     * calls this constructor; code reads better with {@link #custom()}.
     *
     * @throws ConfigException when the sections break a rule that ties them together, such as a
     *     {@code checkpoint.drain_timeout} that does not fit inside {@code pipeline.shutdown_timeout}
     */
    public PipelineConfig(
            PipelineSection pipeline,
            Map<String, SourceSection> sources,
            Map<String, SinkSection> sinks,
            CheckpointConfig checkpoint,
            MetricsConfig metrics,
            Optional<SinkSection> deadLetter,
            Optional<RetrySection> retry) {
        this.pipeline = pipeline == null ? PipelineSection.defaults() : pipeline;
        this.sources = sources == null ? Map.of() : Map.copyOf(sources);
        this.sinks = sinks == null ? Map.of() : Map.copyOf(sinks);
        this.checkpoint = checkpoint == null ? CheckpointConfig.defaults() : checkpoint;
        this.metrics = metrics == null ? MetricsConfig.defaults() : metrics;
        this.deadLetter = deadLetter == null ? Optional.empty() : deadLetter;
        this.retry = retry == null ? Optional.empty() : retry;
        ConfigValidation.checkConstructed(this, PipelineRules::problems);
    }

    /** The sections without a {@code retry} section. */
    public PipelineConfig(
            PipelineSection pipeline,
            Map<String, SourceSection> sources,
            Map<String, SinkSection> sinks,
            CheckpointConfig checkpoint,
            MetricsConfig metrics,
            Optional<SinkSection> deadLetter) {
        this(pipeline, sources, sinks, checkpoint, metrics, deadLetter, Optional.empty());
    }

    /** Defaults everywhere and no source or sink sections: for pipelines built entirely in code. */
    public static PipelineConfig defaults() {
        return new PipelineConfig(null, null, null, null, null, null, null);
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

    /** {@code from(this).checkpoint(value).build()}. */
    public PipelineConfig withCheckpoint(CheckpointConfig value) {
        return from(this).checkpoint(value).build();
    }

    /** {@code from(this).deadLetter(value).build()}: a copy with another {@code dead_letter} section (null for none). */
    public PipelineConfig withDeadLetter(SinkSection value) {
        return from(this).deadLetter(value).build();
    }

    /** {@code from(this).retry(value).build()}: a copy with another {@code retry} section (null for none). */
    public PipelineConfig withRetry(RetrySection value) {
        return from(this).retry(value).build();
    }

    /** A builder starting from the defaults: no sections but the core's, each at its defaults. */
    public static Builder custom() {
        return new Builder(defaults());
    }

    /** A builder starting from {@code base}. */
    public static Builder from(PipelineConfig base) {
        return new Builder(Objects.requireNonNull(base, "base"));
    }

    /**
     * Builds a {@link PipelineConfig} in code, for pipelines whose sources and sinks are built in code too; each
     * section is a record built and checked on its own, and {@link #build()} checks the rules that tie them
     * together, as loading a file does.
     */
    public static final class Builder {
        private PipelineSection pipeline;
        private Map<String, SourceSection> sources;
        private Map<String, SinkSection> sinks;
        private CheckpointConfig checkpoint;
        private MetricsConfig metrics;
        private Optional<SinkSection> deadLetter;
        private Optional<RetrySection> retry;

        private Builder(PipelineConfig base) {
            pipeline = base.pipeline();
            sources = base.sources();
            sinks = base.sinks();
            checkpoint = base.checkpoint();
            metrics = base.metrics();
            deadLetter = base.deadLetter();
            retry = base.retry();
        }

        /** The {@code pipeline} section. */
        public Builder pipeline(PipelineSection value) {
            pipeline = ConfigValidation.requireNonNull("pipeline", value);
            return this;
        }

        /** The {@code source} entries by name; default none. */
        public Builder sources(Map<String, SourceSection> value) {
            sources = Map.copyOf(ConfigValidation.requireNonNull("sources", value));
            return this;
        }

        /** The {@code sinks} entries by name; default none. */
        public Builder sinks(Map<String, SinkSection> value) {
            sinks = Map.copyOf(ConfigValidation.requireNonNull("sinks", value));
            return this;
        }

        /** The {@code checkpoint} section. */
        public Builder checkpoint(CheckpointConfig value) {
            checkpoint = ConfigValidation.requireNonNull("checkpoint", value);
            return this;
        }

        /** The {@code metrics} section. */
        public Builder metrics(MetricsConfig value) {
            metrics = ConfigValidation.requireNonNull("metrics", value);
            return this;
        }

        /** The {@code dead_letter} section, or null for none (the default). */
        public Builder deadLetter(SinkSection value) {
            deadLetter = Optional.ofNullable(value);
            return this;
        }

        /** The {@code retry} section, or null for none (the default). */
        public Builder retry(RetrySection value) {
            retry = Optional.ofNullable(value);
            return this;
        }

        /** The configuration; the constructor checks the rules that tie its sections together. */
        public PipelineConfig build() {
            return new PipelineConfig(pipeline, sources, sinks, checkpoint, metrics, deadLetter, retry);
        }
    }
}
