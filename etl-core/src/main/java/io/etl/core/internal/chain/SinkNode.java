package io.etl.core.internal.chain;

import io.etl.core.error.DeadLetter;
import io.etl.core.error.ErrorPolicy;
import io.etl.core.error.RecordException;
import io.etl.core.internal.pool.SinkPool;
import io.etl.core.record.TraceContext;

/**
 * Hands a value to a sink pool; the sink's encoder errors go to the sink's policy, and so does, in exactly-once mode,
 * an output its destination kept refusing.
 */
final class SinkNode extends Node {

    private final SinkPool<Object, ?> pool;
    private final ErrorPolicy policy;
    private final String dlqStage;
    private final RecordContext ctx;

    SinkNode(SinkPool<Object, ?> pool, RecordContext ctx) {
        this.pool = pool;
        this.policy = pool.sink().errorPolicy();
        this.dlqStage = DeadLetter.encodeStage(pool.name());
        this.ctx = ctx;
    }

    @Override
    public void push(Object value) {
        int index = ctx.outputIndex++;
        if (ctx.appliedRefusal(pool.name(), index, policy, value)) {
            return; // exactly once: refused in every transaction it was allowed; its policy applied instead
        }
        TraceContext trace = ctx.tracing.beginOutput(ctx.trace, pool.name());
        try {
            pool.offer(value, ctx.meta, index, trace, ctx.owner);
            ctx.tracing.endOutput(null);
        } catch (RecordException e) {
            ctx.tracing.endOutput(e);
            ctx.failed(pool.name(), dlqStage, policy, value, e.locatedAt(ctx.meta, pool.name()));
        } catch (RuntimeException e) {
            ctx.tracing.endOutput(e);
            ctx.failed(pool.name(), dlqStage, policy, value, RecordException.ENCODE, e);
        }
    }
}
