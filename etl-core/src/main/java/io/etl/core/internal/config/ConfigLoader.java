package io.etl.core.internal.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.etl.core.config.ConnectorConfigType;
import io.etl.core.config.PipelineConfig;
import io.etl.core.error.ConfigException;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;

/**
 * Loads a {@link PipelineConfig}: reads the YAML into a tree, substitutes {@code ${...}} placeholders
 * inside scalar values ({@link Interpolator}), binds each section strictly ({@link PipelineBinder},
 * {@link SectionBinder}), validates it, and throws one {@link ConfigException} listing every problem.
 *
 * <pre>{@code
 * PipelineConfig config = ConfigLoader.parse(yaml, Map.of("KAFKA_BROKERS", "b:9092")::get, List.of(new MyType()));
 * }</pre>
 *
 * <p>Connector sections bind through the {@link ConnectorConfigType}s registered with
 * {@link java.util.ServiceLoader} unless the caller passes its own list.
 */
public final class ConfigLoader {

    private ConfigLoader() {}

    /** Loads {@code file} with the discovered connector types. */
    public static PipelineConfig load(Path file, Function<String, String> env) {
        return load(file, env, ConnectorRegistry.discovered());
    }

    /** Loads {@code file} with exactly the given connector types. */
    public static PipelineConfig load(
            Path file, Function<String, String> env, List<? extends ConnectorConfigType<?>> types) {
        return load(file, env, ConnectorRegistry.of(types));
    }

    /** Parses YAML text with the discovered connector types. */
    public static PipelineConfig parse(String yaml, Function<String, String> env) {
        return parse(yaml, "", env, ConnectorRegistry.discovered());
    }

    /** Parses YAML text with exactly the given connector types (for tests and embedding). */
    public static PipelineConfig parse(
            String yaml, Function<String, String> env, List<? extends ConnectorConfigType<?>> types) {
        return parse(yaml, "", env, ConnectorRegistry.of(types));
    }

    private static PipelineConfig load(Path file, Function<String, String> env, ConnectorRegistry connectors) {
        String yaml;
        try {
            yaml = Files.readString(file);
        } catch (NoSuchFileException e) {
            throw ConfigException.of(file.toString(), "configuration file not found", e);
        } catch (CharacterCodingException e) {
            throw ConfigException.of(file.toString(), "configuration file is not UTF-8 text", e);
        } catch (IOException e) {
            throw ConfigException.of(file.toString(), "cannot read configuration file (" + e + ")", e);
        }
        return parse(yaml, file.toString(), env, connectors);
    }

    private static PipelineConfig parse(
            String yaml, String source, Function<String, String> env, ConnectorRegistry connectors) {
        JsonNode tree = YamlTrees.read(yaml, source);
        ProblemCollector problems = new ProblemCollector();
        Interpolator interpolator = new Interpolator(env, problems);
        JsonNode interpolated = interpolator.interpolate(tree);
        SectionBinder binder = new SectionBinder(problems, interpolator.variablesByPath());
        // the records' constructors leave their checks to this binding, which reports every problem at once
        PipelineConfig config =
                ConfigBinding.run(() -> new PipelineBinder(problems, binder, connectors).bind(interpolated));
        problems.throwIfAny();
        return config;
    }
}
