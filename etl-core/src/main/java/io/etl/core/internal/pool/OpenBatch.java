package io.etl.core.internal.pool;

import io.etl.core.internal.checkpoint.PendingRecord;
import io.etl.core.record.RecordMeta;
import java.util.Arrays;
import java.util.function.LongSupplier;

/**
 * The batch a shard is filling, owned by the pipeline thread. Its arrays start at the larger of the size of the
 * batch sealed before it and half that batch's capacity: under full load that is a full batch, so they never grow;
 * when batch sizes vary (a batch is sealed whenever its shard's window has room) the room follows the recent
 * largest instead of growing and shrinking with every batch; at a moderate rate it halves batch by batch down to a
 * few records, so a new batch does not hold room for thousands. Sealing hands the arrays, as they are, to the
 * {@link Batch} with its size: nothing is copied.
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

    private void reset(int start) {
        capacity = Math.max(MIN_CAPACITY, Math.min(start, maxCapacity));
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

    Batch<M> seal(String sink, int shard, long sequence) {
        int n = size;
        Batch<M> sealed = new Batch<>(sink, shard, sequence, messages, owners, sources, outputs, n, bytes);
        reset(Math.max(n, owners.length / 2));
        return sealed;
    }
}
