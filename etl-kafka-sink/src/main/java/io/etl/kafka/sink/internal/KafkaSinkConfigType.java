package io.etl.kafka.sink.internal;

import io.etl.core.config.ConnectorConfigType;
import io.etl.core.error.ConfigProblem;
import io.etl.kafka.sink.KafkaSink;
import io.etl.kafka.sink.KafkaSinkConfig;
import java.util.List;

/** Registers {@code sinks.<name>.kafka} with the configuration loader (see {@code META-INF/services}). */
public final class KafkaSinkConfigType implements ConnectorConfigType<KafkaSinkConfig> {

    /** Called by {@link java.util.ServiceLoader}. */
    public KafkaSinkConfigType() {
    }

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
}
