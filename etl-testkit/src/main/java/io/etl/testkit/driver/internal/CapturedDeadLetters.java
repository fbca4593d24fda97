package io.etl.testkit.driver.internal;

import io.etl.core.config.ConnectorConfigType;
import io.etl.core.config.PipelineConfig;
import io.etl.core.config.SinkPoolConfig;
import io.etl.core.config.SinkSection;
import io.etl.core.error.DeadLetter;
import io.etl.core.sink.Sink;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The sink connector behind the dead letters a {@code PipelineTestDriver} captures: a {@code dead_letter} section
 * with its key names one sink a driver registered, so a pipeline's dead letters run through the real dead-letter
 * path (a pool, acknowledgements, commits only once durable) into memory. Registered with
 * {@link java.util.ServiceLoader}; a YAML file has no use for its key.
 */
public final class CapturedDeadLetters implements ConnectorConfigType<CapturedDeadLetters.Config> {

    /** The connector key. */
    public static final String KEY = "etl-test-driver";

    /**
     * The section's record: which registered sink.
     *
     * @param id the registration
     */
    public record Config(String id) {}

    private static final Map<String, Sink<DeadLetter, ?>> SINKS = new ConcurrentHashMap<>();

    /** Called by {@link java.util.ServiceLoader}. */
    public CapturedDeadLetters() {}

    /**
     * Registers {@code sink} and returns the {@code dead_letter} section that selects it; {@link #release} it when
     * the run is over.
     */
    public static SinkSection register(Sink<DeadLetter, ?> sink, SinkPoolConfig pool) {
        String id = UUID.randomUUID().toString();
        SINKS.put(id, sink);
        return new SinkSection(PipelineConfig.DEAD_LETTER, KEY, new Config(id), pool);
    }

    /** Forgets the sink {@code section} selects. */
    public static void release(SinkSection section) {
        SINKS.remove(section.connector(Config.class).id());
    }

    @Override
    public Role role() {
        return Role.SINK;
    }

    @Override
    public String key() {
        return KEY;
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
