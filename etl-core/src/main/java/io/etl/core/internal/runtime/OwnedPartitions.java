package io.etl.core.internal.runtime;

import io.etl.core.source.SourcePartition;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The partitions this run owns now. A partition that arrives gets a tracker; one that leaves loses its tracker
 * and its place in the committed view, since the next owner reports it. Changed on the pipeline thread only;
 * other threads read {@link #snapshot()}.
 */
final class OwnedPartitions {

    private final Set<SourcePartition> assigned = ConcurrentHashMap.newKeySet();
    private final TrackerLookup trackers;
    private final CommitScheduler commits;

    OwnedPartitions(TrackerLookup trackers, CommitScheduler commits) {
        this.trackers = trackers;
        this.commits = commits;
    }

    void assigned(Collection<SourcePartition> partitions) {
        trackers.assigned(partitions);
        assigned.addAll(partitions);
    }

    void released(Collection<SourcePartition> partitions) {
        trackers.released(partitions);
        commits.forget(partitions);
        assigned.removeAll(partitions);
    }

    /** Forgets every record tracked so far, keeping the partitions: they are read again from a rewind point. */
    void forgetRecords() {
        trackers.forgetRecords();
    }

    /** Keeps in {@code positions} only the partitions owned now. */
    <V> Map<SourcePartition, V> ownedOnly(Map<SourcePartition, V> positions) {
        positions.keySet().retainAll(assigned);
        return positions;
    }

    boolean isEmpty() {
        return assigned.isEmpty();
    }

    /** A copy, for any thread. */
    Set<SourcePartition> snapshot() {
        return Set.copyOf(assigned);
    }
}
