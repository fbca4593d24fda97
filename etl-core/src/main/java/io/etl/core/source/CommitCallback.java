package io.etl.core.source;

import java.util.Map;

/**
 * Told once when a commit asked of {@link Source#commit} has completed, on the pipeline thread (for an
 * asynchronous commit, inside a later {@link Source#poll}). The pipeline treats offsets as committed only
 * after a call with no error, so a commit that failed is sent again.
 */
@FunctionalInterface
public interface CommitCallback {

    /**
     * @param offsets the offsets that were sent (partitions no longer assigned are left out)
     * @param error   why the commit failed, or null when the offsets are stored
     */
    void completed(Map<SourcePartition, Long> offsets, Throwable error);
}
