package io.etl.core.internal.checkpoint;

import io.etl.core.source.SourcePartition;
import java.util.Map;

/**
 * One commit the checkpointer asked for: the offsets to send, and the assignment (tracker) each was taken
 * from, so that confirming it later cannot touch a partition's next assignment.
 */
public final class CheckpointCommit {

    private final Map<SourcePartition, Long> offsets;
    private final Map<SourcePartition, PartitionTracker> trackers;

    CheckpointCommit(Map<SourcePartition, Long> offsets, Map<SourcePartition, PartitionTracker> trackers) {
        this.offsets = Map.copyOf(offsets);
        this.trackers = trackers;
    }

    /** The next offset to read, per partition. */
    public Map<SourcePartition, Long> offsets() {
        return offsets;
    }

    public boolean isEmpty() {
        return offsets.isEmpty();
    }

    PartitionTracker tracker(SourcePartition partition) {
        return trackers.get(partition);
    }

    @Override
    public String toString() {
        return offsets.toString();
    }
}
