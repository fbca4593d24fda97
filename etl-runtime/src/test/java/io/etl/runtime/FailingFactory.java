package io.etl.runtime;

import io.etl.core.Pipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.core.error.ConfigException;

/** A registered factory whose pipeline cannot be built from any file: its section is missing. */
public final class FailingFactory implements PipelineFactory {

    static final String NAME = "needs-section";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Pipeline create(PipelineConfig config) {
        throw ConfigException.of("source.missing", "no such source section");
    }
}
