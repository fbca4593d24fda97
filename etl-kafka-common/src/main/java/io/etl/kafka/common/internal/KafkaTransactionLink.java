package io.etl.kafka.common.internal;

import java.util.Optional;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;

/**
 * What a Kafka source hands the Kafka sinks of the same run in exactly-once mode, through the run's
 * {@link io.etl.core.checkpoint.RunContext}: its consumer's group metadata, sent with every transaction's
 * offsets so that the group coordinator refuses a commit from a member that is no longer in the group
 * (KIP-447), and its static member id, from which the transactional id may be derived.
 *
 * <p>{@code
 * KafkaTransactionLink link = context.run().computeIfAbsent(KafkaTransactionLink.class, KafkaTransactionLink::new);
 * }
 */
public final class KafkaTransactionLink {

    private volatile Supplier<ConsumerGroupMetadata> groupMetadata;
    private volatile String groupInstanceId;

    /** The source registers its consumer (called on the pipeline thread, before the first poll). */
    public void attach(Supplier<ConsumerGroupMetadata> metadata, String instanceId) {
        this.groupMetadata = metadata;
        this.groupInstanceId = instanceId;
    }

    /**
     * The consumer's current group metadata (generation, member id), read on the pipeline thread.
     *
     * @throws IllegalStateException when no Kafka source attached itself to this run
     */
    public ConsumerGroupMetadata groupMetadata() {
        Supplier<ConsumerGroupMetadata> m = groupMetadata;
        if (m == null) {
            throw new IllegalStateException("exactly-once delivery needs a Kafka source in the same pipeline");
        }
        return m.get();
    }

    /** Whether a Kafka source attached itself. */
    public boolean attached() {
        return groupMetadata != null;
    }

    /** The source's {@code group_instance_id}, when it uses static membership. */
    public Optional<String> groupInstanceId() {
        return Optional.ofNullable(groupInstanceId);
    }
}
