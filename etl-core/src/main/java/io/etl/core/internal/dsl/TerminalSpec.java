package io.etl.core.internal.dsl;

import io.etl.core.sink.Sink;
import java.util.List;

/**
 * The end of a chain: one sink ({@code branches} empty, {@code otherwise} set) or a split.
 *
 * @param splitName     the split's name, or null for a plain {@code to(sink)}
 * @param branches      the split's branches in order
 * @param otherwise     where unmatched values go; null with {@code dropUnmatched}
 * @param dropUnmatched whether unmatched values are dropped
 * @param allMatching   whether a value goes to every matching branch
 */
public record TerminalSpec(String splitName, List<BranchSpec> branches, Sink<Object, ?> otherwise,
                           boolean dropUnmatched, boolean allMatching) {

    static TerminalSpec single(Sink<Object, ?> sink) {
        return new TerminalSpec(null, List.of(), sink, false, false);
    }

    public boolean isSplit() {
        return splitName != null;
    }
}
