package io.etl.core.internal.pool;

import io.etl.core.internal.checkpoint.PendingRecord;
import io.etl.core.record.RecordMeta;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * The batch a shard is filling, owned by the pipeline thread. Its arrays start at the size of the batch sealed
 * before it: under full load that is a full batch, so they never grow; at a moderate rate batches are sealed
 * with a few records each, and a new batch does not allocate room for thousands. Sealing hands the arrays to the
 * {@link Batch} (trimmed to its size) instead of copying them element by element.
 */
final class OpenBatch<M> {

    /** The smallest starting capacity of a batch's arrays. */
    static final int MIN_CAPACITY = 16;

    private final int maxRecords;
    private final int maxCapacity;
    private final long maxBytes;
    /** Read once per batch, when its first message comes: the time the batch's linger counts from. */
    private final LongSupplier clock;

    private Object[] messages;
    private PendingRecord[] owners;
    private RecordMeta[] sources;
    /** Each message's index among the outputs of its source record. */
    private int[] outputs;

    private int size;

    private long bytes;
    private long openedAtNanos;
    private int capacity;

    OpenBatch(int maxRecords, long maxBytes, LongSupplier clock) {
        this.maxRecords = maxRecords;
        this.maxBytes = maxBytes;
        this.clock = clock;
        this.maxCapacity = Math.min(maxRecords, 4096);
        reset(maxCapacity);
    }

    private void reset(int lastSize) {
        capacity = Math.max(MIN_CAPACITY, Math.min(lastSize, maxCapacity));
        messages = new Object[capacity];
        owners = new PendingRecord[capacity];
        sources = new RecordMeta[capacity];
        outputs = new int[capacity];
        size = 0;
        bytes = 0;
    }

    /**
     * Adds a message, output {@code output} of the record {@code source}; returns true when the batch is now full
     * and must be sealed.
     */
    boolean add(M message, long size, PendingRecord owner, RecordMeta source, int output) {
        int n = this.size;
        if (n == 0) {
            openedAtNanos = clock.getAsLong();
        }
        if (n == owners.length) {
            grow(Math.max(MIN_CAPACITY, n * 2));
        }
        messages[n] = message;
        owners[n] = owner;
        sources[n] = source;
        outputs[n] = output;
        this.size = n + 1;
        bytes += size;
        return n + 1 >= maxRecords || bytes >= maxBytes;
    }

    private void grow(int length) {
        messages = Arrays.copyOf(messages, length);
        owners = Arrays.copyOf(owners, length);
        sources = Arrays.copyOf(sources, length);
        outputs = Arrays.copyOf(outputs, length);
    }

    /** Whether adding {@code size} more bytes to a non-empty batch would pass the byte limit. */
    boolean wouldOverflow(long size) {
        return this.size > 0 && bytes + size > maxBytes;
    }

    boolean isEmpty() {
        return size == 0;
    }

    long openedAtNanos() {
        return openedAtNanos;
    }

    /** The capacity the open batch's arrays were given (for tests). */
    int capacity() {
        return capacity;
    }

    @SuppressWarnings("unchecked")
    Batch<M> seal(String sink, int shard, long sequence) {
        int n = size;
        if (n < owners.length) {
            grow(n);
        }
        Batch<M> sealed =
                new Batch<>(sink, shard, sequence, (List<M>) Arrays.asList(messages), owners, sources, outputs, bytes);
        reset(n);
        return sealed;
    }
}
