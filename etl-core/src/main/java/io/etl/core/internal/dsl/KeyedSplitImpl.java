package io.etl.core.internal.dsl;

import io.etl.core.KeyedSplit;
import io.etl.core.Split;
import io.etl.core.sink.Sink;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Collects a keyed split's branches into its {@link SplitImpl}, checking that each key names one branch. */
final class KeyedSplitImpl<T, K> implements KeyedSplit<T, K> {

    private final SplitImpl<T> split;
    /** The branch each key names so far. */
    private final Map<Object, String> branchOfKey = new HashMap<>();

    KeyedSplitImpl(SplitImpl<T> split) {
        this.split = split;
    }

    @Override
    public KeyedSplit<T, K> branch(String name, K key, Sink<? super T, ?> sink) {
        return branch(name, Collections.singletonList(key), sink);
    }

    @Override
    @SuppressWarnings("unchecked")
    public KeyedSplit<T, K> branch(String name, Collection<? extends K> keys, Sink<? super T, ?> sink) {
        String where = "split '" + split.name + "' branch '" + name + "'";
        if (keys == null || keys.isEmpty()) {
            throw new IllegalArgumentException(where + " has no key");
        }
        List<Object> own = new ArrayList<>(keys.size());
        for (K key : keys) {
            if (key == null) {
                throw new IllegalArgumentException(
                        where + ": null cannot be a key (values with a null key go to otherwise)");
            }
            String earlier = branchOfKey.putIfAbsent(key, name);
            if (earlier != null) {
                throw new IllegalArgumentException(
                        where + ": key '" + key + "' already names branch '" + earlier + "'");
            }
            own.add(key);
        }
        split.add(new BranchSpec(name, null, List.copyOf(own), (Sink<Object, ?>) sink));
        return this;
    }

    @Override
    public Split.End<T> otherwise(Sink<? super T, ?> sink) {
        return split.otherwise(sink);
    }

    @Override
    public Split.End<T> dropUnmatched() {
        return split.dropUnmatched();
    }
}
