package io.etl.kafka.source.internal;

import com.fasterxml.jackson.core.util.BufferRecycler;
import com.fasterxml.jackson.core.util.BufferRecyclers;
import com.fasterxml.jackson.core.util.RecyclerPool;

/**
 * Jackson's per-thread buffer recyclers, with the last thread's kept at hand. Every parser Jackson creates
 * takes a recycler from its pool; the default pool looks it up in a thread-local, once per record decoded.
 * A source decodes on one thread, and comparing the thread with the last one is cheaper than that lookup
 * (which, depending on the other thread-locals of the thread, may probe several slots). Any other thread
 * gets Jackson's own recycler for it, as before.
 */
final class LastThreadRecyclerPool extends RecyclerPool.ThreadLocalPoolBase<BufferRecycler> {

    private static final long serialVersionUID = 1L;

    /**
     * Read and written without synchronization on purpose: a slot is immutable, and a thread only ever uses a
     * slot that names itself.
     */
    private transient Slot last;

    @Override
    public BufferRecycler acquirePooled() {
        Thread current = Thread.currentThread();
        Slot slot = last;
        if (slot != null && slot.thread == current) {
            return slot.recycler;
        }
        BufferRecycler recycler = BufferRecyclers.getBufferRecycler();
        last = new Slot(current, recycler);
        return recycler;
    }

    private record Slot(Thread thread, BufferRecycler recycler) {}
}
