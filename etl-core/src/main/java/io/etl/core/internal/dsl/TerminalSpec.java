package io.etl.core.internal.dsl;

import io.etl.core.sink.Sink;
import java.util.List;
import java.util.function.Function;

/**
 * The end of a chain: one sink (a plain {@code to(sink)}: {@code sink} set) or a split ({@code splitName}
 * and {@code branches} set).
 *
 * @param splitName     the split's name, or null for a plain {@code to(sink)}
 * @param branches      the split's branches in order; empty for a plain {@code to(sink)}
 * @param sink          the one sink of a plain {@code to(sink)}; null for a split
 * @param otherwise     where a split's unmatched values go; null with {@code dropUnmatched} and for a plain
 *                      {@code to(sink)}
 * @param dropUnmatched whether unmatched values are dropped
 * @param allMatching   whether a value goes to every matching branch
 * @param key           a keyed split's key function, or null
 */
public record TerminalSpec(
        String splitName,
        List<BranchSpec> branches,
        Sink<Object, ?> sink,
        Sink<Object, ?> otherwise,
        boolean dropUnmatched,
        boolean allMatching,
        Function<Object, Object> key) {

    static TerminalSpec single(Sink<Object, ?> sink) {
        return new TerminalSpec(null, List.of(), sink, null, false, false, null);
    }

    public boolean isSplit() {
        return splitName != null;
    }

    /** Whether this is a split whose branches are chosen by a key. */
    public boolean isKeyed() {
        return key != null;
    }
}
