package io.etl.core.internal.runtime;

import io.etl.core.config.Durations;
import io.etl.core.error.FatalException;
import io.etl.core.internal.checkpoint.Checkpointer;
import io.etl.core.internal.checkpoint.PartitionTracker;
import io.etl.core.internal.checkpoint.PendingRecord;
import io.etl.core.source.SourcePartition;
import java.time.Duration;
import java.util.Map;
import java.util.Set;

/**
 * Finds a partition stalled behind a batch that failed: its oldest pending record has waited on that failure
 * for {@code checkpoint.stalled_fail_after}. Nothing after it can ever be committed, so the pipeline fails
 * and the records replay once the problem is fixed. A partition that leaves while a record waits behind such a
 * batch fails the pipeline at once ({@link #leaving}).
 *
 * @param checkpointer the trackers to look at
 * @param failAfter    {@code checkpoint.stalled_fail_after}
 */
record StallCheck(Checkpointer checkpointer, Duration failAfter) {

    /** The failure of the first stalled partition found at {@code now}, or null. */
    FatalException stalled(long now) {
        long limit = failAfter.toNanos();
        for (PartitionTracker t : checkpointer.trackers()) {
            t.watermark();
            PendingRecord oldest = t.oldestPending();
            if (oldest != null && oldest.failure() != null && now - oldest.failedAtNanos() >= limit) {
                return new FatalException(
                        "partition " + t.partition() + " stalled at offset " + oldest.offset()
                                + " for " + Durations.format(failAfter) + " behind a batch that failed: "
                                + oldest.failure().getMessage(),
                        oldest.failure());
            }
        }
        return null;
    }

    /**
     * The failure to fail the pipeline with when a record of {@code partitions}, which are leaving this run
     * ({@code how}: revoked or lost), waits behind a batch that failed; null if none does. Its tracker is about
     * to be forgotten, and the partition's next owner would only meet the same failure.
     */
    FatalException leaving(Set<SourcePartition> partitions, String how) {
        Map.Entry<PartitionTracker, PendingRecord> failed = checkpointer.firstFailure(partitions);
        if (failed == null) {
            return null;
        }
        Throwable cause = failed.getValue().failure();
        return new FatalException(
                "partition " + failed.getKey().partition() + " was " + how
                        + " while offset " + failed.getValue().offset()
                        + " waited behind a batch that failed: "
                        + cause.getMessage(),
                cause);
    }
}
