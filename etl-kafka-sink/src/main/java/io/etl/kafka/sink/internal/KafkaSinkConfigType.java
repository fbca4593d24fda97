package io.etl.kafka.sink.internal;

import io.etl.core.config.ConnectorConfigType;
import io.etl.core.config.PipelineConfig;
import io.etl.core.config.RetrySection;
import io.etl.core.config.SinkSection;
import io.etl.core.error.ConfigException;
import io.etl.core.error.ConfigProblem;
import io.etl.core.error.DeadLetter;
import io.etl.core.error.ErrorPolicy;
import io.etl.core.error.RetryLetter;
import io.etl.core.sink.Sink;
import io.etl.kafka.sink.KafkaSink;
import io.etl.kafka.sink.KafkaSinkConfig;
import java.util.List;
import java.util.Optional;

/**
 * Registers {@code sinks.<name>.kafka} with the configuration loader (see {@code META-INF/services}), and
 * builds the dead-letter sink of a {@code dead_letter: {kafka: ...}} section and the retry-topic sink of a
 * {@code retry: {kafka: ...}} section.
 */
public final class KafkaSinkConfigType implements ConnectorConfigType<KafkaSinkConfig> {

    /** Called by {@link java.util.ServiceLoader}. */
    public KafkaSinkConfigType() {}

    @Override
    public Role role() {
        return Role.SINK;
    }

    @Override
    public String key() {
        return KafkaSink.CONNECTOR;
    }

    @Override
    public Class<KafkaSinkConfig> type() {
        return KafkaSinkConfig.class;
    }

    @Override
    public List<ConfigProblem> check(KafkaSinkConfig config, String path) {
        return ProducerSettings.check(config, path);
    }

    /**
     * A Kafka sink writing each dead letter's key, value and headers to the section's topic, with the section's
     * pool settings; a dead letter it cannot write fails the pipeline.
     */
    @Override
    public Optional<Sink<DeadLetter, ?>> deadLetterSink(SinkSection section) {
        KafkaSinkConfig config = section.connector(KafkaSinkConfig.class);
        String path = PipelineConfig.DEAD_LETTER + "." + KafkaSink.CONNECTOR;
        List<ConfigProblem> problems = ProducerSettings.check(config, path);
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        DeadLetterEncoder encoder = DeadLetterEncoder.create(
                config.topic(), config.maxMessageBytes().bytes());
        return Optional.of(new KafkaSinkImpl<>(
                section.name(), path, config, section.pool().withOnError(ErrorPolicy.FAIL), encoder, encoder.guard()));
    }

    /**
     * A Kafka sink writing each retry letter's key, value and headers to its retry topic, with the section's pool
     * settings; a letter its retry topic refuses fails the pipeline.
     */
    @Override
    public Optional<Sink<RetryLetter, ?>> retrySink(SinkSection section) {
        KafkaSinkConfig config = section.connector(KafkaSinkConfig.class);
        String path = RetrySection.NAME + "." + KafkaSink.CONNECTOR;
        List<ConfigProblem> problems = ProducerSettings.check(config, path);
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        return Optional.of(
                new RetryTopicSink(section.name(), path, config, section.pool().withOnError(ErrorPolicy.FAIL)));
    }
}
