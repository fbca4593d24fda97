package io.etl.core.internal.config;

import io.etl.core.config.ConnectorConfigType;
import io.etl.core.error.ConfigProblem;
import java.util.List;

/** Sink section type for {@link FakeSinkConfig}; rejects {@code producer.acks} in its check. */
public final class FakeSinkType implements ConnectorConfigType<FakeSinkConfig> {

    private final String key;

    /** As discovered through {@code META-INF/services}: key {@code fake}. */
    public FakeSinkType() {
        this("fake");
    }

    public FakeSinkType(String key) {
        this.key = key;
    }

    @Override
    public Role role() {
        return Role.SINK;
    }

    @Override
    public String key() {
        return key;
    }

    @Override
    public Class<FakeSinkConfig> type() {
        return FakeSinkConfig.class;
    }

    @Override
    public List<ConfigProblem> check(FakeSinkConfig config, String path) {
        return config.producer().containsKey("acks")
                ? List.of(new ConfigProblem(path + ".producer.acks", "is set by the connector (always all)"))
                : List.of();
    }
}
