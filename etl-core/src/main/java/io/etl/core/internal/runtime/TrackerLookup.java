package io.etl.core.internal.runtime;

import io.etl.core.internal.checkpoint.Checkpointer;
import io.etl.core.internal.checkpoint.PartitionTracker;
import io.etl.core.record.RecordMeta;
import io.etl.core.source.SourcePartition;
import java.util.Collection;
import java.util.List;

/**
 * Finds the checkpointer's tracker of a record's partition and remembers the last one, since records arrive
 * in runs of one partition. Partitions are assigned and released through it, so the tracker it remembers is
 * never one the checkpointer has let go. Used on the pipeline thread only.
 */
final class TrackerLookup {

    private final Checkpointer checkpointer;
    private String lastTopic;
    private int lastPartition = -1;
    private PartitionTracker lastTracker;

    TrackerLookup(Checkpointer checkpointer) {
        this.checkpointer = checkpointer;
    }

    PartitionTracker of(RecordMeta meta) {
        if (meta.partition() == lastPartition && meta.topic().equals(lastTopic) && lastTracker != null) {
            return lastTracker;
        }
        lastTopic = meta.topic();
        lastPartition = meta.partition();
        lastTracker = checkpointer.tracker(new SourcePartition(meta.topic(), meta.partition()));
        return lastTracker;
    }

    void assigned(Collection<SourcePartition> partitions) {
        checkpointer.assigned(partitions);
        lastTracker = null;
    }

    void released(Collection<SourcePartition> partitions) {
        checkpointer.released(partitions);
        lastTracker = null;
    }

    /** Forgets every tracked record, keeping the partitions: each gets an empty tracker. */
    void forgetRecords() {
        List<SourcePartition> tracked = checkpointer.trackers().stream()
                .map(PartitionTracker::partition)
                .toList();
        released(tracked);
        assigned(tracked);
    }
}
