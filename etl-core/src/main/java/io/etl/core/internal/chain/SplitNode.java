package io.etl.core.internal.chain;

import io.etl.core.error.DeadLetter;
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
    /** Which predicates held for the current value (pipeline thread only). */
    private final boolean[] hits;

    SplitNode(
            String name,
            ErrorPolicy policy,
            RecordContext ctx,
            Predicate<Object>[] predicates,
            Node[] branches,
            Node otherwise,
            boolean allMatching,
            Counter unmatched) {
        this.name = name;
        this.dlqStage = DeadLetter.splitStage(name);
        this.policy = policy;
        this.ctx = ctx;
        this.predicates = predicates;
        this.branches = branches;
        this.otherwise = otherwise;
        this.allMatching = allMatching;
        this.unmatched = unmatched;
        this.hits = new boolean[predicates.length];
    }

    /**
     * The value goes on through one call, whichever branch or the fallback takes it: the compiler then inlines
     * the nodes after the split (a sink's pool and encoder) once into this method, not once per way out.
     */
    @Override
    public void push(Object value) {
        if (allMatching) {
            pushToAllMatching(value);
            return;
        }
        Node next = otherwise;
        for (int i = 0; i < predicates.length; i++) {
            Boolean hit = test(i, value);
            if (hit == null) {
                return;
            }
            if (hit) {
                next = branches[i];
                break;
            }
        }
        if (next != null) {
            next.push(value);
        } else {
            unmatched.increment();
        }
    }

    /**
     * Every predicate is asked before any branch gets the value, so a predicate that throws hands the
     * record to the stage's policy without some branches already holding it.
     */
    private void pushToAllMatching(Object value) {
        boolean[] hits = this.hits;
        boolean matched = false;
        for (int i = 0; i < predicates.length; i++) {
            Boolean hit = test(i, value);
            if (hit == null) {
                return;
            }
            hits[i] = hit;
            matched |= hit;
        }
        for (int i = 0; i < predicates.length; i++) {
            if (hits[i]) {
                branches[i].push(value);
            }
        }
        pushUnmatched(matched, value);
    }

    /**
     * Asks predicate {@code i}, calling it again while it throws a {@code RetryableException} and attempts are
     * left; null once it failed for good and the record went to the stage's policy.
     */
    private Boolean test(int i, Object value) {
        int attempt = 1;
        while (true) {
            try {
                return predicates[i].test(value);
            } catch (RuntimeException e) {
                if (ctx.retryAfter(e, attempt)) {
                    attempt++;
                    continue;
                }
                ctx.operatorFailed(name, dlqStage, policy, value, e, attempt);
                return null;
            }
        }
    }

    private void pushUnmatched(boolean matched, Object value) {
        if (!matched) {
            if (otherwise != null) {
                otherwise.push(value);
            } else {
                unmatched.increment();
            }
        }
    }
}
