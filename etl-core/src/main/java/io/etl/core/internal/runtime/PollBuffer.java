package io.etl.core.internal.runtime;

import io.etl.core.record.RecordMeta;
import io.etl.core.source.SourceOutput;
import io.etl.core.source.SourcePartition;
import io.micrometer.core.instrument.Counter;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * The records of the last poll, in the order the source emitted them, and how far the pipeline thread has
 * pushed them through the chain. The source fills it as its {@link SourceOutput}; a record that could not
 * be decoded keeps its place as a {@link DecodeFailure}. Every record is counted as read when it arrives (a
 * record an operator is stuck on is counted too), and as unprocessed when it is forgotten before it was processed.
 * Used on the pipeline thread only.
 */
final class PollBuffer implements SourceOutput<Object> {

    private static final int INITIAL_CAPACITY = 64;

    // values (or DecodeFailure) and metas side by side, consumed from position
    private Object[] values = new Object[INITIAL_CAPACITY];
    private RecordMeta[] metas = new RecordMeta[INITIAL_CAPACITY];
    private int size;
    private int position;
    private final Counter read;
    private final Counter unprocessed;
    private long readTotal;

    /**
     * @param read        counts the records read
     * @param unprocessed counts the records forgotten before they were processed
     */
    PollBuffer(Counter read, Counter unprocessed) {
        this.read = read;
        this.unprocessed = unprocessed;
    }

    /** A record the source could not decode, in its place in the buffer. */
    record DecodeFailure(Throwable cause) {}

    @Override
    public void emit(Object value, RecordMeta meta) {
        add(value, meta);
    }

    @Override
    public void decodeFailed(RecordMeta meta, Throwable cause) {
        add(new DecodeFailure(cause), meta);
    }

    private void add(Object value, RecordMeta meta) {
        int n = size;
        if (n == values.length) {
            values = Arrays.copyOf(values, n * 2);
            metas = Arrays.copyOf(metas, n * 2);
        }
        values[n] = value;
        metas[n] = meta;
        size = n + 1;
        read.increment();
        readTotal++;
    }

    /** Records read since the run began. */
    long readTotal() {
        return readTotal;
    }

    /** Records forgotten before they were processed, since the run began. */
    long unprocessedTotal() {
        return (long) unprocessed.count();
    }

    /** Records buffered, processed or not. */
    int size() {
        return size;
    }

    /** The index of the next record to process. */
    int position() {
        return position;
    }

    /** The index of the next record to process; moves past it. */
    int next() {
        return position++;
    }

    Object value(int index) {
        return values[index];
    }

    RecordMeta meta(int index) {
        return metas[index];
    }

    /** Forgets every record, processed or not. */
    void clear() {
        if (position < size) {
            unprocessed.increment(size - position);
        }
        Arrays.fill(values, 0, size, null);
        Arrays.fill(metas, 0, size, null);
        size = 0;
        position = 0;
    }

    /** The records not processed yet (a view). */
    List<RecordMeta> unprocessed() {
        return Arrays.asList(metas).subList(position, size);
    }

    /** Removes the records of {@code partitions} that were not processed yet, keeping the others in order. */
    void drop(Set<SourcePartition> partitions) {
        int w = position;
        for (int r = position; r < size; r++) {
            RecordMeta m = metas[r];
            if (!partitions.contains(new SourcePartition(m.topic(), m.partition()))) {
                values[w] = values[r];
                metas[w] = m;
                w++;
            }
        }
        if (w < size) {
            unprocessed.increment(size - w);
        }
        Arrays.fill(values, w, size, null);
        Arrays.fill(metas, w, size, null);
        size = w;
    }
}
