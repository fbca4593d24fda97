package io.etl.core.internal.checkpoint;

import io.etl.core.source.SourcePartition;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Per source partition, the lowest offset whose outputs are not all durable. Only the pipeline thread
 * calls it; sink workers only touch {@link PendingRecord} counters.
 */
public final class Checkpointer {

    private final Map<SourcePartition, PartitionTracker> trackers = new HashMap<>();

    /** Starts tracking freshly assigned partitions (a new epoch for each). */
    public void assigned(Collection<SourcePartition> partitions) {
        for (SourcePartition p : partitions) {
            trackers.put(p, new PartitionTracker(p));
        }
    }

    /** The tracker of an assigned partition, creating one when a source emits without telling first. */
    public PartitionTracker tracker(SourcePartition partition) {
        return trackers.computeIfAbsent(partition, PartitionTracker::new);
    }

    /** Stops tracking {@code partitions}; late acknowledgements for them commit nothing. */
    public void released(Collection<SourcePartition> partitions) {
        for (SourcePartition p : partitions) {
            trackers.remove(p);
        }
    }

    public boolean isTracked(SourcePartition partition) {
        return trackers.containsKey(partition);
    }

    /**
     * The watermarks that moved past what the source confirmed as committed. Nothing is marked committed
     * here: {@link #confirmed} does that once the source reports success, so a commit that failed is
     * simply sent again next time.
     */
    public CheckpointCommit nextCommit() {
        Map<SourcePartition, Long> offsets = new LinkedHashMap<>();
        Map<SourcePartition, PartitionTracker> of = new HashMap<>();
        for (PartitionTracker t : trackers.values()) {
            long wm = t.watermark();
            // a watermark still at the first record of the assignment is no progress: nothing to send
            if (wm > t.committed() && wm > t.first()) {
                offsets.put(t.partition(), wm);
                of.put(t.partition(), t);
            }
        }
        return new CheckpointCommit(offsets, of);
    }

    /**
     * Marks what {@code commit} sent as committed and returns the offsets of partitions still tracked by the
     * same assignment (a partition revoked, or revoked and assigned again, since the commit was sent keeps
     * what its new tracker knows).
     */
    public Map<SourcePartition, Long> confirmed(CheckpointCommit commit, Map<SourcePartition, Long> stored) {
        Map<SourcePartition, Long> out = new LinkedHashMap<>();
        for (Map.Entry<SourcePartition, Long> e : stored.entrySet()) {
            PartitionTracker sent = commit.tracker(e.getKey());
            if (sent != null && trackers.get(e.getKey()) == sent) {
                sent.markCommitted(e.getValue());
                out.put(e.getKey(), e.getValue());
            }
        }
        return out;
    }

    /**
     * Records acknowledged (or dropped) but not yet committed, over all partitions: what a crash right now
     * would process a second time on top of what is still in flight.
     */
    public long replayWindow() {
        long n = 0;
        for (PartitionTracker t : trackers.values()) {
            n += t.replayWindow();
        }
        return n;
    }

    /** Current watermarks of {@code partitions} (those with at least one processed record). */
    public Map<SourcePartition, Long> watermarks(Collection<SourcePartition> partitions) {
        Map<SourcePartition, Long> out = new LinkedHashMap<>();
        for (SourcePartition p : partitions) {
            PartitionTracker t = trackers.get(p);
            if (t != null) {
                long wm = t.watermark();
                if (wm >= 0) {
                    out.put(p, wm);
                    t.markCommitted(wm);
                }
            }
        }
        return out;
    }

    /**
     * The first tracker among {@code partitions} holding a record whose output failed fatally, with that
     * record; null when there is none.
     */
    public Map.Entry<PartitionTracker, PendingRecord> firstFailure(Collection<SourcePartition> partitions) {
        for (SourcePartition p : partitions) {
            PartitionTracker t = trackers.get(p);
            PendingRecord failed = t == null ? null : t.firstFailed();
            if (failed != null) {
                return Map.entry(t, failed);
            }
        }
        return null;
    }

    /** Whether every record of {@code partitions} is done. */
    public boolean idle(Collection<SourcePartition> partitions) {
        for (SourcePartition p : partitions) {
            PartitionTracker t = trackers.get(p);
            if (t != null && !t.isIdle()) {
                return false;
            }
        }
        return true;
    }

    /** Whether every record of every partition is done. */
    public boolean allIdle() {
        return idle(trackers.keySet());
    }

    /** Records not yet done, over all partitions. */
    public long pendingRecords() {
        long n = 0;
        for (PartitionTracker t : trackers.values()) {
            t.watermark();
            n += t.pendingCount();
        }
        return n;
    }

    /** Every tracker (for stall checks and metrics). */
    public Collection<PartitionTracker> trackers() {
        return trackers.values();
    }
}
