package io.etl.core.internal.pool;

import io.etl.core.internal.checkpoint.PendingRecord;
import io.etl.core.record.RecordMeta;
import java.util.ArrayList;

/** The batch a shard is filling, owned by the pipeline thread. */
final class OpenBatch<M> {

    private final int maxRecords;
    private final long maxBytes;
    private ArrayList<M> messages;
    private ArrayList<PendingRecord> owners;
    private ArrayList<RecordMeta> sources;
    private long bytes;
    private long openedAtNanos;

    OpenBatch(int maxRecords, long maxBytes) {
        this.maxRecords = maxRecords;
        this.maxBytes = maxBytes;
        reset();
    }

    private void reset() {
        int capacity = Math.min(maxRecords, 4096);
        messages = new ArrayList<>(capacity);
        owners = new ArrayList<>(capacity);
        sources = new ArrayList<>(capacity);
        bytes = 0;
    }

    /** Adds a message; returns true when the batch is now full and must be sealed. */
    boolean add(M message, long size, PendingRecord owner, RecordMeta source, long nowNanos) {
        if (messages.isEmpty()) {
            openedAtNanos = nowNanos;
        }
        messages.add(message);
        owners.add(owner);
        sources.add(source);
        bytes += size;
        return messages.size() >= maxRecords || bytes >= maxBytes;
    }

    /** Whether adding {@code size} more bytes to a non-empty batch would pass the byte limit. */
    boolean wouldOverflow(long size) {
        return !messages.isEmpty() && bytes + size > maxBytes;
    }

    boolean isEmpty() {
        return messages.isEmpty();
    }

    long openedAtNanos() {
        return openedAtNanos;
    }

    Batch<M> seal(String sink, int shard, long sequence) {
        Batch<M> sealed = new Batch<>(
                sink,
                shard,
                sequence,
                messages,
                owners.toArray(new PendingRecord[0]),
                sources.toArray(new RecordMeta[0]),
                bytes);
        reset();
        return sealed;
    }
}
