package io.etl.core.internal.chain;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.core.source.SourcePartition;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The values a stage holds: any of them leaves in constant time, and the rest keep their order. */
class HeldCallsTest {

    private final HeldCalls held = new HeldCalls();

    private static AsyncCall call(String value, int partition) {
        return new AsyncCall(null, value, null, new SourcePartition("t", partition));
    }

    /** Holds a value for each of {@code values}, in order, all of partition 0. */
    private List<AsyncCall> hold(String... values) {
        List<AsyncCall> calls = new ArrayList<>();
        for (String v : values) {
            AsyncCall c = call(v, 0);
            held.add(c);
            calls.add(c);
        }
        return calls;
    }

    private List<Object> values() {
        List<Object> out = new ArrayList<>();
        held.forEach(c -> out.add(c.value));
        return out;
    }

    @Test
    void shouldKeepTheOrderOfTheRestWhenTheFirstMiddleOrLastLeaves() {
        List<AsyncCall> calls = hold("a", "b", "c", "d");
        AsyncCall a = calls.get(0);
        AsyncCall b = calls.get(1);
        AsyncCall c = calls.get(2);
        AsyncCall d = calls.get(3);

        held.remove(b);
        assertThat(values()).containsExactly("a", "c", "d");
        held.remove(a);
        assertThat(values()).containsExactly("c", "d");
        held.remove(d);
        assertThat(values()).containsExactly("c");
        held.remove(c);

        assertThat(held.isEmpty()).isTrue();
        assertThat(values()).isEmpty();
        held.add(a);
        assertThat(values()).containsExactly("a");
    }

    @Test
    void shouldLeaveTheListAsItIsWhenAValueThatIsNotHeldIsRemoved() {
        AsyncCall b = hold("a", "b").get(1);
        held.remove(b);

        held.remove(b);
        held.remove(call("never", 0));

        assertThat(values()).containsExactly("a");
        assertThat(held.size()).isEqualTo(1);
    }

    @Test
    void shouldRemoveTheValuesOfLeavingPartitionsOnly() {
        held.add(call("a", 0));
        held.add(call("b", 1));
        held.add(call("c", 0));
        held.add(call("d", 2));

        assertThat(held.removeIf(c -> c.partition.partition() == 0)).isTrue();
        assertThat(held.removeIf(c -> c.partition.partition() == 5)).isFalse();

        assertThat(values()).containsExactly("b", "d");
        assertThat(held.size()).isEqualTo(2);
        assertThat(held.any(c -> c.partition.partition() == 2)).isTrue();
        assertThat(held.any(c -> c.partition.partition() == 0)).isFalse();
    }
}
