package io.etl.kafka.source.internal;

import io.etl.core.config.ConnectorConfigType;
import io.etl.core.error.ConfigProblem;
import io.etl.kafka.source.KafkaSourceConfig;
import java.util.List;

/**
 * Registers {@code source.<name>.kafka} with the configuration loader (through
 * {@code META-INF/services/io.etl.core.config.ConnectorConfigType}).
 */
public final class KafkaSourceConfigType implements ConnectorConfigType<KafkaSourceConfig> {

    @Override
    public Role role() {
        return Role.SOURCE;
    }

    @Override
    public String key() {
        return "kafka";
    }

    @Override
    public Class<KafkaSourceConfig> type() {
        return KafkaSourceConfig.class;
    }

    @Override
    public List<ConfigProblem> check(KafkaSourceConfig config, String path) {
        return SourceConfigCheck.problems(config, path);
    }
}
