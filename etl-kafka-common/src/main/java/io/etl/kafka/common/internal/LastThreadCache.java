package io.etl.kafka.common.internal;

import java.util.function.Supplier;

/**
 * A per-thread object with the last thread's kept at hand. A connector encodes or decodes a record stream on one
 * thread, and comparing the current thread with the last one is cheaper than a thread-local lookup per record
 * (which, depending on the other thread-locals of the thread, may probe several slots). Every other thread gets
 * what {@code lookup} gives it.
 *
 * <p>The last slot is read and written without synchronization on purpose: a slot is immutable, and a thread only
 * ever uses a slot that names itself.
 *
 * @param <T> the per-thread object
 */
public final class LastThreadCache<T> {

    private final Supplier<T> lookup;
    private Slot<T> last;

    /** @param lookup the calling thread's own object (a thread-local's {@code get}, typically) */
    public LastThreadCache(Supplier<T> lookup) {
        this.lookup = lookup;
    }

    /** The calling thread's object: the last one when this thread asked last, else {@code lookup}'s. */
    public T get() {
        Thread current = Thread.currentThread();
        Slot<T> slot = last;
        if (slot != null && slot.thread == current) {
            return slot.value;
        }
        T value = lookup.get();
        last = new Slot<>(current, value);
        return value;
    }

    /** Forgets the last thread's object, so that the next {@link #get()} asks {@code lookup} again. */
    public void forget() {
        last = null;
    }

    private record Slot<T>(Thread thread, T value) {}
}
