package io.etl.core.internal.config;

import io.etl.core.config.PipelineConfig;
import java.nio.file.Path;
import java.util.function.Function;

/** Loads {@link PipelineConfig}s (placeholder until the loader lands). */
public final class ConfigLoader {

    private ConfigLoader() {
    }

    public static PipelineConfig load(Path file, Function<String, String> env) {
        throw new UnsupportedOperationException("not yet implemented");
    }

    public static PipelineConfig parse(String yaml, Function<String, String> env) {
        throw new UnsupportedOperationException("not yet implemented");
    }
}
