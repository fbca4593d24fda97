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

    /** Watermarks that moved past what was last committed, marked as committed. */
    public Map<SourcePartition, Long> advance() {
        Map<SourcePartition, Long> out = new LinkedHashMap<>();
        for (PartitionTracker t : trackers.values()) {
            long wm = t.watermark();
            if (wm > t.committed()) {
                out.put(t.partition(), wm);
                t.markCommitted(wm);
            }
        }
        return out;
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
