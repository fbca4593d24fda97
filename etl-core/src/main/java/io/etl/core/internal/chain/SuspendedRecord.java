package io.etl.core.internal.chain;

import io.etl.core.internal.checkpoint.PendingRecord;
import io.etl.core.record.RecordMeta;
import io.etl.core.record.TraceContext;

/**
 * A source record part of which waits in an asynchronous stage: what the chain needs to carry on with it later on
 * the pipeline thread (its metadata, its pending-record counter, its trace context and the number of its next
 * output). Pipeline thread only.
 */
final class SuspendedRecord {

    private final RecordMeta meta;
    private final PendingRecord owner;
    private final TraceContext trace;
    int outputIndex;

    SuspendedRecord(RecordMeta meta, PendingRecord owner, TraceContext trace, int outputIndex) {
        this.meta = meta;
        this.owner = owner;
        this.trace = trace;
        this.outputIndex = outputIndex;
    }

    RecordMeta meta() {
        return meta;
    }

    PendingRecord owner() {
        return owner;
    }

    TraceContext trace() {
        return trace;
    }
}
