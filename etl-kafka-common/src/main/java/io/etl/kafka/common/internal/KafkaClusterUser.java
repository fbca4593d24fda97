package io.etl.kafka.common.internal;

import java.util.List;

/**
 * A connector that can tell, without any I/O, how it will use Kafka clusters once opened: which brokers, as
 * whom, which topics and groups. The Kafka source and sink implement it; the runtime's {@code check} command
 * hands what they tell to {@link ClusterInspection}.
 */
public interface KafkaClusterUser {

    /** The uses, each with the key path of the configuration section it comes from. */
    List<ClusterUse> clusterUses();
}
