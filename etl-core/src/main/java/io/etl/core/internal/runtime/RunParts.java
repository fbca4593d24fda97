package io.etl.core.internal.runtime;

import io.etl.core.internal.checkpoint.Checkpointer;
import io.etl.core.source.Source;
import io.etl.core.source.SourcePartition;
import java.util.Set;

/**
 * The parts of one pipeline run that the loop shares with the rebalance handler, the transaction steps and
 * the shutdown sequence. They are used on the pipeline thread; other threads only read the assigned
 * partitions, the committed view and the signals.
 *
 * @param pipeline     the pipeline's name, for the log
 * @param source       the source, called on the pipeline thread only
 * @param buffer       the records of the last poll
 * @param checkpointer the watermarks of the assigned partitions
 * @param trackers     the checkpointer's trackers by record, through which partitions are assigned and released
 * @param sinks        the sink pools and the dead letters
 * @param commits      the commits and what counts as committed
 * @param assigned     the partitions assigned now (a concurrent set)
 * @param signals      the run's first failure and the pipeline thread's wake-ups
 */
record RunParts(
        String pipeline,
        Source<Object> source,
        PollBuffer buffer,
        Checkpointer checkpointer,
        TrackerLookup trackers,
        PipelineSinks sinks,
        CommitScheduler commits,
        Set<SourcePartition> assigned,
        PipelineSignals signals) {}
