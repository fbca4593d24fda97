package io.etl.testkit.driver;

import io.etl.core.config.ConnectorConfigType;
import io.etl.core.config.PipelineConfig;
import io.etl.core.config.SinkSection;
import io.etl.core.error.DeadLetter;
import io.etl.core.sink.Sink;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A sink connector (key {@code test}) whose dead-letter sink is a {@link TestSink} a test registered under an
 * id, so the dead-letter path of a pipeline can be driven without a broker.
 */
public final class TestDeadLetterConnector implements ConnectorConfigType<TestDeadLetterConnector.Config> {

    /** The {@code dead_letter.test} section: which registered sink to use. */
    public record Config(String id) {}

    private static final Map<String, TestSink<DeadLetter>> SINKS = new ConcurrentHashMap<>();

    /** Called by {@link java.util.ServiceLoader}. */
    public TestDeadLetterConnector() {}

    /** A dead-letter sink for {@code id}, and the {@code dead_letter} section that selects it. */
    static SinkSection register(String id, TestSink<DeadLetter> sink) {
        SINKS.put(id, sink);
        return new SinkSection(PipelineConfig.DEAD_LETTER, "test", new Config(id), sink.pool());
    }

    @Override
    public Role role() {
        return Role.SINK;
    }

    @Override
    public String key() {
        return "test";
    }

    @Override
    public Class<Config> type() {
        return Config.class;
    }

    @Override
    public Optional<Sink<DeadLetter, ?>> deadLetterSink(SinkSection section) {
        return Optional.ofNullable(SINKS.get(section.connector(Config.class).id()));
    }
}
