package io.etl.kafka.source.internal;

import io.etl.core.source.SourcePartition;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A synchronous commit (the final one, at shutdown) that met a rebalance another member started, one leaving or
 * joining: the consumer takes part in the rebalance by polling with its partitions paused, so nothing is fetched for
 * them (records of partitions it gets meanwhile are left unprocessed and uncommitted), then commits again what it
 * still holds. A partition revoked meanwhile is committed by the revoke, as in any rebalance.
 */
final class RebalancingCommit {

    private static final Logger LOG = LoggerFactory.getLogger(RebalancingCommit.class);
    /** How long each poll that takes part in the rebalance waits. */
    private static final Duration POLL = Duration.ofMillis(100);

    private RebalancingCommit() {}

    /**
     * Commits {@code offsets} of the partitions still held once the rebalance is over; returns what was committed.
     *
     * @throws RebalanceInProgressException the last one, when the rebalance outlasts {@code timeout}
     */
    static Map<TopicPartition, OffsetAndMetadata> commit(
            String source,
            Consumer<byte[], byte[]> consumer,
            AssignedPartitions assigned,
            Map<SourcePartition, Long> offsets,
            Duration timeout,
            RebalanceInProgressException first) {
        LOG.info("source '{}': the group is rebalancing; the commit waits for it to finish", source);
        long deadline = System.nanoTime() + timeout.toNanos();
        RebalanceInProgressException last = first;
        while (System.nanoTime() - deadline < 0) {
            consumer.pause(consumer.assignment());
            consumer.poll(POLL);
            Map<TopicPartition, OffsetAndMetadata> commit = assigned.heldOnly(offsets);
            if (commit.isEmpty()) {
                return commit;
            }
            try {
                consumer.commitSync(commit, Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
                return commit;
            } catch (RebalanceInProgressException e) {
                last = e;
            }
        }
        throw last;
    }
}
