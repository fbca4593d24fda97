package io.etl.core.internal.pool;

import io.etl.core.internal.checkpoint.PendingRecord;
import io.etl.core.record.RecordMeta;
import java.util.ArrayList;
import java.util.Arrays;

/**
 * The batch a shard is filling, owned by the pipeline thread. Its lists start at the size of the batch sealed
 * before it: under full load that is a full batch, so they never grow; at a moderate rate batches are sealed
 * with a few records each, and a new batch does not allocate room for thousands.
 */
final class OpenBatch<M> {

    /** The smallest starting capacity of a batch's lists. */
    static final int MIN_CAPACITY = 16;

    private final int maxRecords;
    private final int maxCapacity;
    private final long maxBytes;
    private ArrayList<M> messages;
    private ArrayList<PendingRecord> owners;
    private ArrayList<RecordMeta> sources;
    /** Each message's index among the outputs of its source record. */
    private int[] outputs;

    private long bytes;
    private long openedAtNanos;
    private int capacity;

    OpenBatch(int maxRecords, long maxBytes) {
        this.maxRecords = maxRecords;
        this.maxBytes = maxBytes;
        this.maxCapacity = Math.min(maxRecords, 4096);
        reset(maxCapacity);
    }

    private void reset(int lastSize) {
        capacity = Math.max(MIN_CAPACITY, Math.min(lastSize, maxCapacity));
        messages = new ArrayList<>(capacity);
        owners = new ArrayList<>(capacity);
        sources = new ArrayList<>(capacity);
        outputs = new int[capacity];
        bytes = 0;
    }

    /**
     * Adds a message, output {@code output} of the record {@code source}; returns true when the batch is now full
     * and must be sealed.
     */
    boolean add(M message, long size, PendingRecord owner, RecordMeta source, int output, long nowNanos) {
        if (messages.isEmpty()) {
            openedAtNanos = nowNanos;
        }
        int n = messages.size();
        if (n == outputs.length) {
            outputs = Arrays.copyOf(outputs, Math.max(MIN_CAPACITY, n * 2));
        }
        outputs[n] = output;
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

    /** The capacity the open batch's lists were given (for tests). */
    int capacity() {
        return capacity;
    }

    Batch<M> seal(String sink, int shard, long sequence) {
        Batch<M> sealed = new Batch<>(
                sink,
                shard,
                sequence,
                messages,
                owners.toArray(new PendingRecord[0]),
                sources.toArray(new RecordMeta[0]),
                Arrays.copyOf(outputs, messages.size()),
                bytes);
        reset(owners.size());
        return sealed;
    }
}
