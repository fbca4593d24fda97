package io.etl.core.internal.pool;

import io.etl.core.error.ErrorPolicy;
import io.etl.core.error.RecordException;
import io.etl.core.internal.checkpoint.PendingRecord;
import io.etl.core.record.RecordMeta;
import io.etl.core.sink.SealedBatch;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

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
    private final PendingRecord[] owners;
    private final RecordMeta[] sources;
    private final int[] outputs;
    private final long bytes;
    private volatile RecordException[] refused;
    private int[] refusedInAttempt;
    private int refusedCount;
    private int attempt;
    private boolean settled;
    /** Messages at the head that earlier attempts made durable. */
    private volatile int durablePrefix;

    Batch(
            String sink,
            int shard,
            long sequence,
            List<M> messages,
            PendingRecord[] owners,
            RecordMeta[] sources,
            int[] outputs,
            long bytes) {
        this.sink = sink;
        this.shard = shard;
        this.sequence = sequence;
        this.messages = Collections.unmodifiableList(messages);
        this.owners = owners;
        this.sources = sources;
        this.outputs = outputs;
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
        return owners.length;
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
        Objects.checkIndex(index, owners.length);
        RecordException[] r = refused;
        if (r == null) {
            r = new RecordException[owners.length];
            refusedInAttempt = new int[owners.length];
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
        durablePrefix = Math.max(durablePrefix, Math.min(count, owners.length));
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
        for (int i = 0; i < owners.length; i++) {
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
        for (PendingRecord owner : owners) {
            owner.fail(cause);
        }
        return true;
    }

    boolean settled() {
        return settled;
    }

    @Override
    public String toString() {
        return "batch " + sink + "/" + shard + "#" + sequence + " (" + owners.length + " messages, attempt " + attempt
                + ")";
    }
}
