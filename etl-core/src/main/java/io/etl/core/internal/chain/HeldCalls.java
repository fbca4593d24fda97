package io.etl.core.internal.chain;

import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The values an asynchronous stage holds, in the order they entered: a list linked through the values themselves,
 * so that a value enters and leaves without hashing or allocating. Pipeline thread only.
 */
final class HeldCalls {

    private AsyncCall first;
    private AsyncCall last;
    private int size;

    void add(AsyncCall call) {
        call.heldPrev = last;
        call.heldNext = null;
        if (last == null) {
            first = call;
        } else {
            last.heldNext = call;
        }
        last = call;
        size++;
    }

    /** Removes {@code call}; a value that is not held is left alone. */
    void remove(AsyncCall call) {
        if (call.heldPrev == null && first != call) {
            return;
        }
        AsyncCall prev = call.heldPrev;
        AsyncCall next = call.heldNext;
        if (prev == null) {
            first = next;
        } else {
            prev.heldNext = next;
        }
        if (next == null) {
            last = prev;
        } else {
            next.heldPrev = prev;
        }
        call.heldPrev = null;
        call.heldNext = null;
        size--;
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** Whether a held value matches {@code test}. */
    boolean any(Predicate<AsyncCall> test) {
        for (AsyncCall c = first; c != null; c = c.heldNext) {
            if (test.test(c)) {
                return true;
            }
        }
        return false;
    }

    void forEach(Consumer<AsyncCall> action) {
        for (AsyncCall c = first; c != null; c = c.heldNext) {
            action.accept(c);
        }
    }

    /** Removes the values that match {@code test}; whether there were any. */
    boolean removeIf(Predicate<AsyncCall> test) {
        boolean any = false;
        AsyncCall c = first;
        while (c != null) {
            AsyncCall next = c.heldNext;
            if (test.test(c)) {
                remove(c);
                any = true;
            }
            c = next;
        }
        return any;
    }
}
