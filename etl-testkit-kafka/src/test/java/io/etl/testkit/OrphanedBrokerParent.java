package io.etl.testkit;

import io.etl.testkit.internal.ForkedKafkaClusterImpl;

/**
 * Test helper main: starts a forked broker, prints its pid and work directory, then dies abruptly
 * (no shutdown hooks), leaving the broker orphaned for {@link NoLeftoversIT} to watch.
 */
public final class OrphanedBrokerParent {

    private OrphanedBrokerParent() {}

    public static void main(String[] args) {
        ForkedKafkaCluster kafka = KafkaTestCluster.forkedSingle();
        System.out.println("BROKER_PID=" + kafka.pid(ForkedKafkaCluster.SINGLE_NODE_ID));
        System.out.println("WORK_DIR=" + ((ForkedKafkaClusterImpl) kafka).workDirectory());
        System.out.flush();
        Runtime.getRuntime().halt(9);
    }
}
