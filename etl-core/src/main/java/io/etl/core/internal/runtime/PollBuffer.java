package io.etl.core.internal.runtime;

import io.etl.core.record.RecordMeta;
import io.etl.core.source.SourceOutput;
import io.etl.core.source.SourcePartition;
import io.micrometer.core.instrument.Counter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The records of the last poll, in the order the source emitted them, and how far the pipeline thread has
 * pushed them through the chain. The source fills it as its {@link SourceOutput}; a record that could not
 * be decoded keeps its place as a {@link DecodeFailure}. Every record is counted as read when it arrives, and
 * as unprocessed when it is forgotten before it was processed. Used on the pipeline thread only.
 */
final class PollBuffer implements SourceOutput<Object> {

    // values (or DecodeFailure) and metas side by side, consumed from position
    private final ArrayList<Object> values = new ArrayList<>();
    private final ArrayList<RecordMeta> metas = new ArrayList<>();
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
        values.add(value);
        metas.add(meta);
        countRead();
    }

    @Override
    public void decodeFailed(RecordMeta meta, Throwable cause) {
        values.add(new DecodeFailure(cause));
        metas.add(meta);
        countRead();
    }

    private void countRead() {
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
        return values.size();
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
        return values.get(index);
    }

    RecordMeta meta(int index) {
        return metas.get(index);
    }

    /** Forgets every record, processed or not. */
    void clear() {
        if (position < values.size()) {
            unprocessed.increment(values.size() - position);
        }
        values.clear();
        metas.clear();
        position = 0;
    }

    /** The records not processed yet (a view). */
    List<RecordMeta> unprocessed() {
        return metas.subList(position, metas.size());
    }

    /** Removes the records of {@code partitions} that were not processed yet, keeping the others in order. */
    void drop(Set<SourcePartition> partitions) {
        int w = position;
        for (int r = position; r < values.size(); r++) {
            RecordMeta m = metas.get(r);
            if (!partitions.contains(new SourcePartition(m.topic(), m.partition()))) {
                values.set(w, values.get(r));
                metas.set(w, m);
                w++;
            }
        }
        if (w < values.size()) {
            unprocessed.increment(values.size() - w);
        }
        values.subList(w, values.size()).clear();
        metas.subList(w, metas.size()).clear();
    }
}
