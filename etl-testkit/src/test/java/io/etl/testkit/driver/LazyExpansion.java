package io.etl.testkit.driver;

import java.util.Iterator;
import java.util.function.ObjIntConsumer;

/**
 * A flatMap result that is computed only as it is iterated: {@code value-0, value-1, ...}, calling a hook with
 * the value and the index just before each element is made (to count the pulls, or to throw part-way).
 */
final class LazyExpansion {

    private LazyExpansion() {}

    static Iterable<String> of(String value, int size, ObjIntConsumer<String> beforeEach) {
        return () -> new Iterator<>() {
            private int n;

            @Override
            public boolean hasNext() {
                return n < size;
            }

            @Override
            public String next() {
                beforeEach.accept(value, n);
                return value + "-" + n++;
            }
        };
    }

    /** A hook for {@link #of} that throws just before element {@code index} of {@code value} is made. */
    static ObjIntConsumer<String> throwingAt(String value, int index) {
        return (v, n) -> {
            if (v.equals(value) && n == index) {
                throw new IllegalStateException("cannot expand " + v);
            }
        };
    }
}
