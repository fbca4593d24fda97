package io.etl.core.internal.pool;

import io.etl.core.error.ErrorPolicy;
import io.etl.core.error.RecordException;
import io.etl.core.internal.checkpoint.PendingRecord;
import io.etl.core.record.RecordMeta;
import io.etl.core.sink.SealedBatch;
import java.util.AbstractList;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * A sealed batch plus the pending records its messages belong to, their source records and which output of its
 * record each message is (one entry per message, so a message the destination refuses can be dead-lettered as it
 * was read, and recognised when its record is processed again). The attempt counter
 * and the acknowledged flag are only touched by the shard's worker thread; refusals come from the writer's
 * threads before the attempt completes.
 */
final class Batch<M> implements SealedBatch<M> {

    private final String sink;
    private final int shard;
    private final long sequence;
    private final List<M> messages;
    // the batch's entries are the first `size` of each array; the rest is room the batch did not use
    private final PendingRecord[] owners;
    private final RecordMeta[] sources;
    private final int[] outputs;
    private final int size;
    private final long bytes;
    private volatile RecordException[] refused;
    private int[] refusedInAttempt;
    private int refusedCount;
    private int attempt;
    private boolean settled;
    /** Messages at the head that earlier attempts made durable. */
    private volatile int durablePrefix;

    /**
     * A batch of the first {@code size} entries of each array, which it keeps as they are (an array may be longer).
     */
    Batch(
            String sink,
            int shard,
            long sequence,
            Object[] messages,
            PendingRecord[] owners,
            RecordMeta[] sources,
            int[] outputs,
            int size,
            long bytes) {
        this.sink = sink;
        this.shard = shard;
        this.sequence = sequence;
        this.messages = new Prefix<>(messages, size);
        this.owners = owners;
        this.sources = sources;
        this.outputs = outputs;
        this.size = size;
        this.bytes = bytes;
    }

    @Override
    public String sink() {
        return sink;
    }

    @Override
    public int shard() {
        return shard;
    }

    @Override
    public long sequence() {
        return sequence;
    }

    @Override
    public int attempt() {
        return attempt;
    }

    @Override
    public List<M> messages() {
        return messages;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public long bytes() {
        return bytes;
    }

    void nextAttempt() {
        attempt++;
    }

    @Override
    public synchronized void reject(int index, RecordException error) {
        Objects.checkIndex(index, size);
        RecordException[] r = refused;
        if (r == null) {
            r = new RecordException[size];
            refusedInAttempt = new int[size];
        }
        if (r[index] == null) {
            refusedCount++;
            refusedInAttempt[index] = attempt;
        }
        r[index] = error.locatedAt(sources[index], sink);
        refused = r;
    }

    @Override
    public boolean rejected(int index) {
        RecordException[] r = refused;
        return r != null && r[index] != null;
    }

    @Override
    public synchronized void durablePrefix(int count) {
        durablePrefix = Math.max(durablePrefix, Math.min(count, size));
    }

    @Override
    public int durablePrefix() {
        return durablePrefix;
    }

    /** Messages refused by the destination so far. */
    synchronized int refusedCount() {
        return refusedCount;
    }

    /**
     * Marks every message durable, once, except those the destination refused: those go to {@code events}
     * with the hold of their message. {@code onPipeline}: the holds were taken as the pipeline thread's own
     * ({@link PendingRecord#retainOnPipeline()}) and this is that thread. Returns false when it was already settled.
     */
    boolean acknowledge(PoolEvents events, ErrorPolicy policy, boolean onPipeline) {
        if (settled) {
            return false;
        }
        settled = true;
        RecordException[] r;
        int[] attempts;
        synchronized (this) {
            r = refused;
            attempts = refusedInAttempt;
        }
        for (int i = 0; i < size; i++) {
            if (r != null && r[i] != null) {
                if (onPipeline) {
                    owners[i].handOffHold(); // whoever ends the refusal releases it
                }
                // the attempt that refused it: a later attempt of the batch did not send it again
                events.refused(new Refusal(sink, policy, sources[i], outputs[i], owners[i], r[i], attempts[i]));
            } else if (onPipeline) {
                owners[i].releaseOnPipeline();
            } else {
                owners[i].release();
            }
        }
        return true;
    }

    /** Marks every message as never becoming durable, once. */
    boolean fail(Throwable cause) {
        if (settled) {
            return false;
        }
        settled = true;
        for (int i = 0; i < size; i++) {
            owners[i].fail(cause);
        }
        return true;
    }

    boolean settled() {
        return settled;
    }

    /** The first {@code size} elements of an array, read-only. */
    private static final class Prefix<M> extends AbstractList<M> implements RandomAccess {
        private final Object[] elements;
        private final int size;

        Prefix(Object[] elements, int size) {
            this.elements = elements;
            this.size = size;
        }

        @Override
        @SuppressWarnings("unchecked")
        public M get(int index) {
            return (M) elements[Objects.checkIndex(index, size)];
        }

        @Override
        public int size() {
            return size;
        }
    }

    @Override
    public String toString() {
        return "batch " + sink + "/" + shard + "#" + sequence + " (" + size + " messages, attempt " + attempt + ")";
    }
}
