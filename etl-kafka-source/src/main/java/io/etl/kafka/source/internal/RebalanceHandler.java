package io.etl.kafka.source.internal;

import io.etl.core.source.PartitionListener;
import io.etl.core.source.SourcePartition;
import io.etl.kafka.common.internal.KafkaErrors;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.FencedInstanceIdException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A source's rebalance callbacks, run inside {@code poll} on the pipeline thread: keeps
 * {@link AssignedPartitions} up to date, tells the pipeline, and commits what the pipeline returns for revoked
 * partitions before letting them go. A failure of the pipeline inside a callback is kept and thrown once
 * {@code poll} returns ({@link #failure}); while the source closes the pipeline is not called.
 */
final class RebalanceHandler implements ConsumerRebalanceListener {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaConsumerSource.class);

    private final String name;
    private final Duration revokeTimeout;
    private final Consumer<byte[], byte[]> consumer;
    private final PartitionListener listener;
    private final AssignedPartitions partitions;
    private final SourceMeters meters;
    private final SessionWatch watch;
    private final ConsumerErrorClassifier errors;
    private final BooleanSupplier paused;
    private final BooleanSupplier closing;
    /** Thrown by the pipeline inside a rebalance callback; rethrown once poll returns. */
    private RuntimeException failure;

    /**
     * @param paused  whether the pipeline is backpressured now (newly assigned partitions are paused too)
     * @param closing whether the source is closing (the pipeline is no longer called)
     */
    RebalanceHandler(String name, Duration revokeTimeout, Consumer<byte[], byte[]> consumer, PartitionListener listener,
                     AssignedPartitions partitions, SourceMeters meters, SessionWatch watch,
                     ConsumerErrorClassifier errors, BooleanSupplier paused, BooleanSupplier closing) {
        this.name = name;
        this.revokeTimeout = revokeTimeout;
        this.consumer = consumer;
        this.listener = listener;
        this.partitions = partitions;
        this.meters = meters;
        this.watch = watch;
        this.errors = errors;
        this.paused = paused;
        this.closing = closing;
    }

    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> assignment) {
        watch.settled();
        if (assignment.isEmpty()) {
            return;
        }
        List<SourcePartition> added = partitions.add(assignment);
        boolean backpressured = paused.getAsBoolean();
        if (backpressured) {
            consumer.pause(assignment);
        }
        meters.assigned();
        LOG.info("source '{}': assigned {}{}", name, added, backpressured ? " (paused: the pipeline is backpressured)" : "");
        if (closing.getAsBoolean()) {
            return;
        }
        try {
            listener.onAssigned(added);
        } catch (RuntimeException e) {
            remember(e);
        }
    }

    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> revokedPartitions) {
        if (revokedPartitions.isEmpty()) {
            return;
        }
        List<SourcePartition> revoked = partitions.of(revokedPartitions);
        meters.revoked();
        long started = watch.now();
        try {
            if (closing.getAsBoolean() || failure != null) {
                return;
            }
            Map<SourcePartition, Long> safe;
            try {
                safe = listener.onRevoked(revoked, revokeTimeout);
            } catch (RuntimeException e) {
                remember(e);
                return;
            }
            commitRevoked(revoked, partitions.heldOnly(safe));
        } finally {
            partitions.release(revokedPartitions);
            // waiting for the revoked partitions' output is not being away
            watch.inCallback(watch.now() - started);
        }
    }

    private void commitRevoked(List<SourcePartition> revoked, Map<TopicPartition, OffsetAndMetadata> commit) {
        if (commit.isEmpty()) {
            LOG.info("source '{}': revoked {}, nothing to commit", name, revoked);
            return;
        }
        try {
            consumer.commitSync(commit, revokeTimeout);
            meters.committed();
            LOG.info("source '{}': revoked {}, committed {}", name, revoked, commit);
        } catch (FencedInstanceIdException e) {
            meters.commitFailed();
            remember(errors.classify(e));
        } catch (RuntimeException e) {
            meters.commitFailed();
            LOG.warn("source '{}': commit of revoked partitions {} failed: {}; their next owner replays from"
                    + " the last committed offsets (duplicates, no loss)", name, commit, KafkaErrors.rootMessage(e));
        }
    }

    @Override
    public void onPartitionsLost(Collection<TopicPartition> lostPartitions) {
        watch.settled();
        if (lostPartitions.isEmpty()) {
            return;
        }
        List<SourcePartition> lost = partitions.of(lostPartitions);
        meters.lost();
        partitions.release(lostPartitions);
        LOG.warn("source '{}': lost {} without a chance to commit; their next owner replays them", name, lost);
        if (closing.getAsBoolean()) {
            return;
        }
        try {
            listener.onLost(lost);
        } catch (RuntimeException e) {
            remember(e);
        }
    }

    /** The failure a callback kept, if any, without clearing it. */
    RuntimeException failure() {
        return failure;
    }

    /** Forgets the kept failure once it was thrown. */
    void clearFailure() {
        failure = null;
    }

    private void remember(RuntimeException e) {
        if (failure == null) {
            failure = e;
        }
    }
}
