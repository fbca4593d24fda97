package io.etl.core.internal.dsl;

import io.etl.core.Split;
import io.etl.core.sink.Sink;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

/** Collects a split's branches: by predicate, or by key through a {@link KeyedSplitImpl}. */
final class SplitImpl<T> implements Split<T>, Split.End<T> {

    final String name;
    /** A keyed split's key function; null for a split by predicates. */
    private final Function<Object, Object> key;

    private final List<BranchSpec> branches = new ArrayList<>();
    private Sink<Object, ?> otherwise;
    private boolean dropUnmatched;
    private boolean allMatching;
    private boolean ended;

    SplitImpl(String name) {
        this(name, null);
    }

    SplitImpl(String name, Function<Object, Object> key) {
        this.name = name;
        this.key = key;
    }

    @Override
    @SuppressWarnings("unchecked")
    public Split<T> branch(String branchName, Predicate<? super T> predicate, Sink<? super T, ?> sink) {
        checkOpen();
        if (predicate == null) {
            throw new IllegalArgumentException("split '" + name + "' branch '" + branchName + "' has no predicate");
        }
        add(new BranchSpec(branchName, (Predicate<Object>) predicate, List.of(), (Sink<Object, ?>) sink));
        return this;
    }

    /** Adds a branch built by this split or by its keyed form. */
    void add(BranchSpec branch) {
        checkOpen();
        branches.add(branch);
    }

    @Override
    public Split<T> toAllMatching() {
        checkOpen();
        allMatching = true;
        return this;
    }

    @Override
    @SuppressWarnings("unchecked")
    public End<T> otherwise(Sink<? super T, ?> sink) {
        checkOpen();
        if (sink == null) {
            throw new IllegalArgumentException("split '" + name + "': otherwise(..) needs a sink; use dropUnmatched()"
                    + " to drop values no branch takes");
        }
        otherwise = (Sink<Object, ?>) sink;
        ended = true;
        return this;
    }

    @Override
    public End<T> dropUnmatched() {
        checkOpen();
        dropUnmatched = true;
        ended = true;
        return this;
    }

    private void checkOpen() {
        if (ended) {
            throw new IllegalStateException("split '" + name + "' is already complete");
        }
    }

    TerminalSpec toSpec() {
        return new TerminalSpec(name, List.copyOf(branches), null, otherwise, dropUnmatched, allMatching, key);
    }
}
