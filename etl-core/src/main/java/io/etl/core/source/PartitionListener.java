package io.etl.core.source;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;

/**
 * Told by a source when partitions are assigned or taken away. Implemented by the pipeline; called on
 * the source's polling thread.
 */
public interface PartitionListener {

    /** New partitions; records of them may follow. */
    void onAssigned(Collection<SourcePartition> partitions);

    /**
     * Partitions about to be released. The pipeline stops emitting them, waits up to {@code waitUpTo}
     * for their in-flight outputs, and returns the offsets that are safe to commit for them (the next
     * offset to read). The source commits these synchronously before it lets the partitions go.
     * Acknowledgements arriving after this call never commit anything for these partitions.
     */
    Map<SourcePartition, Long> onRevoked(Collection<SourcePartition> partitions, Duration waitUpTo);

    /** Partitions lost without a chance to commit (for example after a session timeout). */
    void onLost(Collection<SourcePartition> partitions);
}
