package io.etl.kafka.source.internal;

import io.etl.core.source.PartitionListener;
import io.etl.core.source.SourcePartition;
import io.etl.kafka.common.internal.KafkaErrors;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
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
 * partitions before letting them go. A failure of the pipeline inside a callback goes to {@link PendingFailures},
 * which the next poll throws; while the source closes the pipeline is not called.
 *
 * @param name          the source's name, for log lines
 * @param revokeTimeout bound of the pipeline's drain and of the commit for revoked partitions
 * @param clock         monotonic time in nanoseconds, to leave time spent in callbacks out of {@link SessionWatch}
 * @param paused        whether the pipeline is backpressured now (newly assigned partitions are paused too)
 * @param closing       whether the source is closing (the pipeline is no longer called)
 */
record RebalanceHandler(
        String name,
        Duration revokeTimeout,
        Consumer<byte[], byte[]> consumer,
        PartitionListener listener,
        AssignedPartitions partitions,
        SourceMeters meters,
        SessionWatch watch,
        ConsumerErrorClassifier errors,
        PendingFailures failures,
        LongSupplier clock,
        BooleanSupplier paused,
        BooleanSupplier closing)
        implements ConsumerRebalanceListener {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaConsumerSource.class);

    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> assignment) {
        if (settledWith(assignment)) {
            return;
        }
        List<SourcePartition> added = partitions.add(assignment);
        boolean backpressured = paused.getAsBoolean();
        if (backpressured) {
            consumer.pause(assignment);
        }
        meters.assigned();
        LOG.info(
                "source '{}': assigned {}{}",
                name,
                added,
                backpressured ? " (paused: the pipeline is backpressured)" : "");
        tellPipeline(() -> listener.onAssigned(added));
    }

    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> revokedPartitions) {
        if (revokedPartitions.isEmpty()) {
            return;
        }
        List<SourcePartition> revoked = partitions.of(revokedPartitions);
        meters.revoked();
        long started = clock.getAsLong();
        try {
            if (closing.getAsBoolean() || failures.hasCallbackFailure()) {
                return;
            }
            Map<SourcePartition, Long> safe;
            try {
                safe = listener.onRevoked(revoked, revokeTimeout);
            } catch (RuntimeException e) {
                failures.callbackFailed(e);
                return;
            }
            commitRevoked(revoked, partitions.heldOnly(safe));
        } finally {
            partitions.release(revokedPartitions);
            // waiting for the revoked partitions' output is not being away
            watch.inCallback(clock.getAsLong() - started);
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
            failures.callbackFailed(errors.classify(e));
        } catch (RuntimeException e) {
            meters.commitFailed();
            LOG.warn(
                    "source '{}': commit of revoked partitions {} failed: {}; their next owner replays from"
                            + " the last committed offsets (duplicates, no loss)",
                    name,
                    commit,
                    KafkaErrors.rootMessage(e));
        }
    }

    @Override
    public void onPartitionsLost(Collection<TopicPartition> lostPartitions) {
        if (settledWith(lostPartitions)) {
            return;
        }
        List<SourcePartition> lost = partitions.of(lostPartitions);
        meters.lost();
        partitions.release(lostPartitions);
        LOG.warn("source '{}': lost {} without a chance to commit; their next owner replays them", name, lost);
        tellPipeline(() -> listener.onLost(lost));
    }

    /**
     * The group has settled what this member owns (since it was away, if it was); returns whether the callback
     * concerns no partition and so has nothing more to do.
     */
    private boolean settledWith(Collection<TopicPartition> changed) {
        watch.settled();
        return changed.isEmpty();
    }

    /** Calls the pipeline unless the source is closing; what it throws waits for the next poll. */
    private void tellPipeline(Runnable call) {
        if (closing.getAsBoolean()) {
            return;
        }
        try {
            call.run();
        } catch (RuntimeException e) {
            failures.callbackFailed(e);
        }
    }
}
