package io.etl.core.internal.runtime;

import io.etl.core.error.DeadLetter;
import io.etl.core.error.ErrorPolicy;
import io.etl.core.error.RecordException;
import io.etl.core.internal.chain.Node;
import io.etl.core.internal.chain.RecordContext;
import io.etl.core.internal.chain.RecordErrors;
import io.etl.core.internal.checkpoint.Checkpointer;
import io.etl.core.internal.checkpoint.PartitionTracker;
import io.etl.core.internal.checkpoint.PendingRecord;
import io.etl.core.record.RecordMeta;

/**
 * Where a source record enters the operator chain, on the pipeline thread. The record is tracked in its
 * partition's tracker and held while the chain runs; a value goes through the chain, a record the source could
 * not decode goes to the source's decode policy; the chain's own hold is released when it is done. It also says
 * when the records held are too many for more to enter.
 */
final class RecordEntry {

    private final TrackerLookup trackers;
    private final Checkpointer checkpointer;
    private final RecordContext ctx;
    private final Node head;
    private final RecordErrors errors;
    private final String sourceName;
    private final ErrorPolicy decodePolicy;
    private final int maxPendingRecords;

    /**
     * @param trackers          the trackers of the assigned partitions
     * @param checkpointer      counts the records tracked
     * @param ctx               the context of the record going through the chain
     * @param head              the chain's first node
     * @param errors            the record errors, and the dead letters they hold in flight
     * @param sourceName        the source's name, the stage of a decode failure
     * @param decodePolicy      what a record the source could not decode does
     * @param maxPendingRecords {@code checkpoint.max_pending_records}
     */
    RecordEntry(
            TrackerLookup trackers,
            Checkpointer checkpointer,
            RecordContext ctx,
            Node head,
            RecordErrors errors,
            String sourceName,
            ErrorPolicy decodePolicy,
            int maxPendingRecords) {
        this.trackers = trackers;
        this.checkpointer = checkpointer;
        this.ctx = ctx;
        this.head = head;
        this.errors = errors;
        this.sourceName = sourceName;
        this.decodePolicy = decodePolicy;
        this.maxPendingRecords = maxPendingRecords;
    }

    /** Pushes one record through the chain; {@code value} is a {@link PollBuffer.DecodeFailure} when it has none. */
    void process(Object value, RecordMeta meta) {
        PartitionTracker tracker = trackers.of(meta);
        PendingRecord owner = new PendingRecord(meta.offset());
        ctx.begin(meta, owner);
        if (value instanceof PollBuffer.DecodeFailure failed) {
            RecordException error = RecordException.at(
                    meta,
                    sourceName,
                    RecordException.DECODE,
                    failed.cause().getMessage() == null
                            ? failed.cause().getClass().getName()
                            : failed.cause().getMessage(),
                    failed.cause());
            ctx.failed(sourceName, DeadLetter.DECODE_STAGE, decodePolicy, null, error);
        } else {
            head.push(value);
        }
        ctx.end();
        // reached only when no stage stopped the pipeline: release the chain's own hold
        owner.releaseOnPipeline();
        tracker.processed(owner);
    }

    /**
     * Whether the source must wait before more records enter: behind a slow or failed record, done records
     * are tracked too, and dead letters in flight hold their records; both are bounded here.
     */
    boolean full() {
        return checkpointer.pendingRecords() >= maxPendingRecords || errors.deadLettersFull();
    }
}
