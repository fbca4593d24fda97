package io.etl.core.internal.chain;

import io.etl.core.error.ErrorPolicy;
import io.micrometer.core.instrument.Counter;
import java.util.function.Predicate;

/** Routes a value to the first (or every) branch whose predicate holds, else to the fallback. */
final class SplitNode extends Node {

    private final String name;
    private final String dlqStage;
    private final ErrorPolicy policy;
    private final RecordContext ctx;
    private final Predicate<Object>[] predicates;
    private final Node[] branches;
    private final Node otherwise;
    private final boolean allMatching;
    private final Counter unmatched;

    SplitNode(String name, ErrorPolicy policy, RecordContext ctx, Predicate<Object>[] predicates, Node[] branches,
              Node otherwise, boolean allMatching, Counter unmatched) {
        this.name = name;
        this.dlqStage = io.etl.core.error.DeadLetter.splitStage(name);
        this.policy = policy;
        this.ctx = ctx;
        this.predicates = predicates;
        this.branches = branches;
        this.otherwise = otherwise;
        this.allMatching = allMatching;
        this.unmatched = unmatched;
    }

    @Override
    public void push(Object value) {
        boolean matched = false;
        for (int i = 0; i < predicates.length; i++) {
            boolean hit;
            int attempt = 1;
            while (true) {
                try {
                    hit = predicates[i].test(value);
                    break;
                } catch (RuntimeException e) {
                    if (ctx.retryAfter(e, attempt)) {
                        attempt++;
                        continue;
                    }
                    ctx.operatorFailed(name, dlqStage, policy, value, e, attempt);
                    return;
                }
            }
            if (hit) {
                matched = true;
                branches[i].push(value);
                if (!allMatching) {
                    return;
                }
            }
        }
        if (!matched) {
            if (otherwise != null) {
                otherwise.push(value);
            } else {
                unmatched.increment();
            }
        }
    }
}
