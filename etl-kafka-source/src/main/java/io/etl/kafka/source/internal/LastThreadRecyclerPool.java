package io.etl.kafka.source.internal;

import com.fasterxml.jackson.core.util.BufferRecycler;
import com.fasterxml.jackson.core.util.BufferRecyclers;
import com.fasterxml.jackson.core.util.RecyclerPool;
import io.etl.kafka.common.internal.LastThreadCache;

/**
 * Jackson's per-thread buffer recyclers, with the last thread's kept at hand ({@link LastThreadCache}). Every
 * parser Jackson creates takes a recycler from its pool, so the default pool looks one up in a thread-local once
 * per record decoded; here a source's decoding thread gets its own without that lookup. Any other thread gets
 * Jackson's own recycler for it, as before.
 */
final class LastThreadRecyclerPool extends RecyclerPool.ThreadLocalPoolBase<BufferRecycler> {

    private static final long serialVersionUID = 1L;

    private final transient LastThreadCache<BufferRecycler> recyclers =
            new LastThreadCache<>(BufferRecyclers::getBufferRecycler);

    @Override
    public BufferRecycler acquirePooled() {
        return recyclers.get();
    }

    /** A deserialized pool starts with no last thread, as a new one does. */
    private Object readResolve() {
        return new LastThreadRecyclerPool();
    }
}
