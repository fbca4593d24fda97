package io.etl.core.internal.config;

import io.etl.core.config.ConnectorConfigType;

/** Source section type for {@link FakeSourceConfig}. */
public final class FakeSourceType implements ConnectorConfigType<FakeSourceConfig> {

    private final String key;

    /** As discovered through {@code META-INF/services}: key {@code fake}. */
    public FakeSourceType() {
        this("fake");
    }

    public FakeSourceType(String key) {
        this.key = key;
    }

    @Override
    public Role role() {
        return Role.SOURCE;
    }

    @Override
    public String key() {
        return key;
    }

    @Override
    public Class<FakeSourceConfig> type() {
        return FakeSourceConfig.class;
    }
}
