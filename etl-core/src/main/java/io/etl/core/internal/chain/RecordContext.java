package io.etl.core.internal.chain;

import io.etl.core.config.PipelineSection;
import io.etl.core.error.DeadLetter;
import io.etl.core.error.ErrorPolicy;
import io.etl.core.error.RecordException;
import io.etl.core.error.RetryableException;
import io.etl.core.internal.checkpoint.PendingRecord;
import io.etl.core.internal.pool.RefusedOutputs;
import io.etl.core.internal.trace.RecordTracing;
import io.etl.core.record.RecordMeta;
import io.etl.core.record.TraceContext;
import java.util.concurrent.locks.LockSupport;

/**
 * The source record the chain is working on: its metadata, its pending-record counter, and the next
 * output index. One instance per pipeline, reused for every record, touched only by the pipeline thread.
 */
public final class RecordContext {

    private final RecordErrors errors;
    /** In exactly-once mode, the outputs refused in aborted transactions; null otherwise. */
    private final RefusedOutputs refused;

    private final int operatorAttempts;
    private final long operatorBackoffNanos;
    final RecordTracing tracing;
    RecordMeta meta;
    TraceContext trace;
    PendingRecord owner;
    int outputIndex;
    /** The current record as asynchronous stages keep it, once one took part of it; null until then. */
    private SuspendedRecord suspended;

    /** A context whose records' outputs carry their input's trace context, with no spans. */
    public RecordContext(RecordErrors errors) {
        this(errors, PipelineSection.defaults(), RecordTracing.PROPAGATE);
    }

    /** A context whose operators are retried as {@code pipeline} says and whose records are traced by {@code tracing}. */
    public RecordContext(RecordErrors errors, PipelineSection pipeline, RecordTracing tracing) {
        this(errors, pipeline, tracing, null);
    }

    /**
     * {@link #RecordContext(RecordErrors, PipelineSection, RecordTracing)} for an exactly-once run, whose sinks
     * apply their policy to an output {@code refused} says was refused often enough instead of sending it again.
     */
    public RecordContext(RecordErrors errors, PipelineSection pipeline, RecordTracing tracing, RefusedOutputs refused) {
        this.errors = errors;
        this.refused = refused;
        this.operatorAttempts = pipeline.operatorAttempts();
        this.operatorBackoffNanos = pipeline.operatorBackoff().toNanos();
        this.tracing = tracing;
    }

    /** Starts work on a new source record. */
    public void begin(RecordMeta meta, PendingRecord owner) {
        this.meta = meta;
        this.owner = owner;
        this.outputIndex = 0;
        this.suspended = null;
        this.trace = tracing.beginRecord(meta);
    }

    /**
     * The current record as an asynchronous stage keeps it while its call runs: the values of one record (a
     * {@code flatMap} before the stage) share one, and with it the numbering of their outputs.
     */
    SuspendedRecord suspend() {
        SuspendedRecord s = suspended;
        if (s == null) {
            s = new SuspendedRecord(meta, owner, trace, outputIndex);
            suspended = s;
        }
        return s;
    }

    /** Continues {@code record} after a call of an asynchronous stage completed (between two records). */
    void resume(SuspendedRecord record) {
        this.meta = record.meta();
        this.owner = record.owner();
        this.trace = record.trace();
        this.outputIndex = record.outputIndex;
        this.suspended = record;
    }

    /** Ends a continuation {@link #resume} started: the record keeps its output numbering. */
    void paused(SuspendedRecord record) {
        record.outputIndex = outputIndex;
        this.meta = null;
        this.owner = null;
        this.trace = null;
        this.suspended = null;
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

    /**
     * Hands a failed record to its stage's policy.
     *
     * @param stage    the stage's name (metric tag)
     * @param dlqStage the stage as a dead letter names it ({@code decode}, {@code operator:<name>}, ...)
     */
    public void failed(String stage, String dlqStage, ErrorPolicy policy, Object value, RecordException error) {
        errors.handle(stage, dlqStage, policy, value, error, 1, this);
    }

    /**
     * In exactly-once mode: whether {@code sink}'s destination refused output {@code output} of the current record
     * in as many aborted transactions as allowed. If so, {@code policy} (the sink's) has just been applied to it,
     * inside the open transaction, and the caller sends nothing.
     */
    boolean appliedRefusal(String sink, int output, ErrorPolicy policy, Object value) {
        RefusedOutputs.Refused r = refused == null ? null : refused.due(sink, meta, output);
        if (r == null) {
            return false;
        }
        errors.handle(sink, DeadLetter.produceStage(sink), policy, value, r.error(), r.attempts(), this);
        return true;
    }

    /**
     * Whether an operator that threw {@code error} on attempt {@code attempt} should be called again: it threw
     * a {@link RetryableException} and attempts are left. Waits the backoff before returning true.
     */
    boolean retryAfter(Throwable error, int attempt) {
        if (!(error instanceof RetryableException) || attempt >= operatorAttempts) {
            return false;
        }
        long wait = operatorBackoffNanos << Math.min(attempt - 1, 20);
        long deadline = System.nanoTime() + wait;
        long left;
        while ((left = deadline - System.nanoTime()) > 0) {
            LockSupport.parkNanos(this, left);
        }
        return true;
    }

    /** An exception thrown by a user operator, after {@code attempts} calls. */
    void operatorFailed(
            String stage, String dlqStage, ErrorPolicy policy, Object value, Throwable cause, int attempts) {
        if (cause instanceof PipelineStop stop) {
            throw stop;
        }
        failed(stage, dlqStage, policy, value, RecordException.OPERATOR, cause, attempts);
    }

    /** An exception with no record-level classification of its own, reported as {@code reason} at this record. */
    void failed(String stage, String dlqStage, ErrorPolicy policy, Object value, String reason, Throwable cause) {
        failed(stage, dlqStage, policy, value, reason, cause, 1);
    }

    void failed(
            String stage,
            String dlqStage,
            ErrorPolicy policy,
            Object value,
            String reason,
            Throwable cause,
            int attempts) {
        String detail = cause.getClass().getName()
                + (cause.getMessage() == null ? "" : ": " + cause.getMessage())
                + (attempts > 1 ? " (after " + attempts + " attempts)" : "");
        errors.handle(
                stage, dlqStage, policy, value, RecordException.at(meta, stage, reason, detail, cause), attempts, this);
    }
}
