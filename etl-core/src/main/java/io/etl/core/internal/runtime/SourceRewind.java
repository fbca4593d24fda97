package io.etl.core.internal.runtime;

import io.etl.core.source.Source;
import io.etl.core.source.SourcePartition;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes the source read again from the last committed transaction (exactly once, after an abort): the buffered
 * records and every tracked record are forgotten, and each owned partition is sought back to where the
 * transactions say it must be read from. Used on the pipeline thread only.
 */
final class SourceRewind {

    private static final Logger LOG = LoggerFactory.getLogger(SourceRewind.class);

    private final String pipeline;
    private final PollBuffer buffer;
    private final OwnedPartitions partitions;
    private final Source<?> source;

    SourceRewind(String pipeline, PollBuffer buffer, OwnedPartitions partitions, Source<?> source) {
        this.pipeline = pipeline;
        this.buffer = buffer;
        this.partitions = partitions;
        this.source = source;
    }

    /** Rewinds to {@code transactions}' restart points (or a buffered record's offset where it has none). */
    void rewind(TransactionRun transactions) {
        Map<SourcePartition, Long> points = transactions.rewindPoints(buffer.unprocessed());
        buffer.clear();
        partitions.forgetRecords();
        source.seek(partitions.ownedOnly(points));
        LOG.info("pipeline '{}': rewound to {}", pipeline, points);
    }
}
