package io.etl.core.internal.chain;

import io.etl.core.error.ErrorPolicy;
import io.etl.core.error.RecordException;
import io.etl.core.internal.checkpoint.PendingRecord;
import io.etl.core.internal.trace.RecordTracing;
import io.etl.core.record.RecordMeta;
import io.etl.core.record.TraceContext;

/**
 * The source record the chain is working on: its metadata, its pending-record counter, and the next
 * output index. One instance per pipeline, reused for every record, touched only by the pipeline thread.
 */
public final class RecordContext {

    private final RecordErrors errors;
    final RecordTracing tracing;
    RecordMeta meta;
    TraceContext trace;
    PendingRecord owner;
    int outputIndex;
    long nowNanos;

    /** A context whose records' outputs carry their input's trace context, with no spans. */
    public RecordContext(RecordErrors errors) {
        this(errors, RecordTracing.PROPAGATE);
    }

    public RecordContext(RecordErrors errors, RecordTracing tracing) {
        this.errors = errors;
        this.tracing = tracing;
    }

    /** Starts work on a new source record. */
    public void begin(RecordMeta meta, PendingRecord owner, long nowNanos) {
        this.meta = meta;
        this.owner = owner;
        this.outputIndex = 0;
        this.nowNanos = nowNanos;
        this.trace = tracing.beginRecord(meta);
    }

    /** Ends work on the record {@link #begin} started (its consumer span, when tracing). */
    public void end() {
        trace = null;
        tracing.endRecord();
    }

    public RecordMeta meta() {
        return meta;
    }

    public PendingRecord owner() {
        return owner;
    }

    /** Hands a failed record to its stage's policy. */
    public void failed(String stage, ErrorPolicy policy, Object value, RecordException error) {
        errors.handle(stage, policy, value, error, this);
    }

    /** An exception thrown by a user operator. */
    void operatorFailed(String stage, ErrorPolicy policy, Object value, Throwable cause) {
        if (cause instanceof PipelineStop stop) {
            throw stop;
        }
        failed(stage, policy, value, RecordException.OPERATOR, cause);
    }

    /** An exception with no record-level classification of its own, reported as {@code reason} at this record. */
    void failed(String stage, ErrorPolicy policy, Object value, String reason, Throwable cause) {
        String detail = cause.getClass().getName() + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
        failed(stage, policy, value, RecordException.at(meta, stage, reason, detail, cause));
    }
}
