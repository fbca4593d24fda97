package io.etl.core.internal.runtime;

import io.etl.core.config.Durations;
import io.etl.core.error.FatalException;
import io.etl.core.internal.checkpoint.Checkpointer;
import io.etl.core.internal.checkpoint.PartitionTracker;
import io.etl.core.internal.checkpoint.PendingRecord;
import java.time.Duration;

/**
 * Finds a partition stalled behind a batch that failed: its oldest pending record has waited on that failure
 * for {@code checkpoint.stalled_fail_after}. Nothing after it can ever be committed, so the pipeline fails
 * and the records replay once the problem is fixed.
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
}
