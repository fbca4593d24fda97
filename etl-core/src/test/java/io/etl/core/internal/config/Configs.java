package io.etl.core.internal.config;

import io.etl.core.config.ConnectorConfigType;
import io.etl.core.config.PipelineConfig;
import io.etl.core.error.ConfigException;
import io.etl.core.error.ConfigProblem;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.Assertions;

/** Test helpers: parse with fake {@code kafka} connectors and a fixed environment. */
final class Configs {

    static final List<ConnectorConfigType<?>> KAFKA = List.of(new FakeSourceType("kafka"), new FakeSinkType("kafka"));

    private Configs() {}

    static PipelineConfig parse(String yaml) {
        return parse(yaml, Map.of());
    }

    static PipelineConfig parse(String yaml, Map<String, String> env) {
        return ConfigLoader.parse(yaml, env::get, KAFKA);
    }

    /** The problems of a configuration that must fail, as {@code path: message} strings. */
    static List<String> problems(String yaml) {
        return problems(yaml, Map.of());
    }

    static List<String> problems(String yaml, Map<String, String> env) {
        ConfigException e = Assertions.catchThrowableOfType(ConfigException.class, () -> parse(yaml, env));
        Assertions.assertThat(e).as("expected a ConfigException").isNotNull();
        return e.problems().stream().map(ConfigProblem::toString).toList();
    }
}
