package io.etl.core.internal.pool;

import io.etl.core.internal.checkpoint.PendingRecord;
import io.etl.core.sink.SealedBatch;
import java.util.Collections;
import java.util.List;

/**
 * A sealed batch plus the pending records its messages belong to (one entry per message). The attempt
 * counter and the acknowledged flag are only touched by the shard's worker thread.
 */
final class Batch<M> implements SealedBatch<M> {

    private final String sink;
    private final int shard;
    private final long sequence;
    private final List<M> messages;
    private final PendingRecord[] owners;
    private final long bytes;
    private int attempt;
    private boolean settled;

    Batch(String sink, int shard, long sequence, List<M> messages, PendingRecord[] owners, long bytes) {
        this.sink = sink;
        this.shard = shard;
        this.sequence = sequence;
        this.messages = Collections.unmodifiableList(messages);
        this.owners = owners;
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

    /** Marks every message durable, once. Returns false when it was already settled. */
    boolean acknowledge() {
        if (settled) {
            return false;
        }
        settled = true;
        for (PendingRecord owner : owners) {
            owner.release();
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
        return "batch " + sink + "/" + shard + "#" + sequence + " (" + owners.length + " messages, attempt " + attempt + ")";
    }
}
