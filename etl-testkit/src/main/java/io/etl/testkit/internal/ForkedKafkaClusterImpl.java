package io.etl.testkit.internal;

import io.etl.testkit.BrokerOptions;
import io.etl.testkit.ForkedKafkaCluster;

/** Placeholder, replaced by the forked implementation. */
public final class ForkedKafkaClusterImpl {
    private ForkedKafkaClusterImpl() {
    }

    public static ForkedKafkaCluster startSingle(BrokerOptions options) {
        throw new UnsupportedOperationException("forked brokers are not implemented yet");
    }

    public static ForkedKafkaCluster startCluster(int brokers, BrokerOptions options) {
        throw new UnsupportedOperationException("forked brokers are not implemented yet");
    }
}
