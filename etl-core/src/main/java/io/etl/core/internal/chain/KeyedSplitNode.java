package io.etl.core.internal.chain;

import io.etl.core.error.DeadLetter;
import io.etl.core.error.ErrorPolicy;
import io.micrometer.core.instrument.Counter;
import java.util.Map;
import java.util.function.Function;

/**
 * Routes a value to the branch its key names, computing the key once whatever the number of branches; a value
 * whose key names none (or is null) goes to the fallback.
 */
final class KeyedSplitNode extends Node {

    private final String name;
    private final String dlqStage;
    private final ErrorPolicy policy;
    private final RecordContext ctx;
    private final Function<Object, Object> key;
    private final Map<Object, Node> branches;
    private final Node otherwise;
    private final Counter unmatched;

    /**
     * @param branches the branch of each key (a map whose lookups do not change it)
     * @param otherwise where values whose key names no branch go; null drops them
     */
    KeyedSplitNode(
            String name,
            ErrorPolicy policy,
            RecordContext ctx,
            Function<Object, Object> key,
            Map<Object, Node> branches,
            Node otherwise,
            Counter unmatched) {
        this.name = name;
        this.dlqStage = DeadLetter.splitStage(name);
        this.policy = policy;
        this.ctx = ctx;
        this.key = key;
        this.branches = branches;
        this.otherwise = otherwise;
        this.unmatched = unmatched;
    }

    /** As {@link SplitNode#push}, the value goes on through one call, whichever branch takes it. */
    @Override
    public void push(Object value) {
        Object k;
        int attempt = 1;
        while (true) {
            try {
                k = key.apply(value);
                break;
            } catch (PipelineStop stop) {
                throw stop;
            } catch (RuntimeException e) {
                if (ctx.retryAfter(e, attempt)) {
                    attempt++;
                    continue;
                }
                ctx.operatorFailed(name, dlqStage, policy, value, e, attempt);
                return;
            }
        }
        Node next = k == null ? otherwise : branches.getOrDefault(k, otherwise);
        if (next != null) {
            next.push(value);
        } else {
            unmatched.increment();
        }
    }
}
