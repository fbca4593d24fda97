package io.etl.core.internal.pool;

import io.etl.core.error.RecordException;
import io.etl.core.error.RetryableException;
import io.etl.core.record.RecordMeta;
import io.etl.core.sink.SealedBatch;
import io.etl.core.source.SourcePartition;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * In exactly-once mode, the outputs their destination refused on their own account (too large for the topic,
 * against a broker policy), kept across the aborts they cause. A refused output cannot be dropped from a
 * transaction: the producer's transaction fails with it, the pipeline aborts and reads the same records again. So a
 * refusal is remembered here, by sink, source position and output index, instead of having its sink's policy
 * applied; once an output was refused in {@code attempts} aborted transactions, the next time its record is
 * processed the policy applies there ({@link #due}), inside the new transaction, and nothing is sent.
 *
 * <p>Memory is bounded: a commit forgets the refusals of the records it covers, a partition that leaves forgets its
 * own, and past {@link #CAPACITY} outputs the oldest refusal is forgotten (its output is then tried again). Refusals
 * arrive on sink workers; the pipeline thread asks and prunes.
 */
public final class RefusedOutputs {

    /** Refused outputs kept at most (about 100 bytes each). */
    public static final int CAPACITY = 10_000;

    private static final Logger LOG = LoggerFactory.getLogger(RefusedOutputs.class);

    private final int attempts;
    private final int capacity;
    /** In the order first refused, so that the oldest goes first when full. */
    private final Map<Key, Entry> entries = new LinkedHashMap<>();
    /** Why the open transaction cannot commit: an output was refused in it. */
    private final AtomicReference<RetryableException> refusedInOpen = new AtomicReference<>();

    private volatile int size;
    private boolean warnedFull;

    /** @param attempts aborted transactions an output may cause before its policy applies, at least 1 */
    public RefusedOutputs(int attempts) {
        this(attempts, CAPACITY);
    }

    RefusedOutputs(int attempts, int capacity) {
        if (attempts < 1 || capacity < 1) {
            throw new IllegalArgumentException("attempts and capacity must be at least 1");
        }
        this.attempts = attempts;
        this.capacity = capacity;
    }

    /** A refused output whose policy applies now, and in how many transactions it was refused. */
    public record Refused(RecordException error, int attempts) {}

    /**
     * The events of an output pool in exactly-once mode: those of {@code delegate}, except that a refused message is
     * remembered here and its hold released (its transaction aborts), not handed to its policy.
     */
    public PoolEvents remembering(PoolEvents delegate) {
        return new PoolEvents() {
            @Override
            public void acknowledged() {
                delegate.acknowledged();
            }

            @Override
            public void writeCompleted() {
                delegate.writeCompleted();
            }

            @Override
            public void batchFailed(SealedBatch<?> batch, Throwable cause) {
                delegate.batchFailed(batch, cause);
            }

            @Override
            public void batchesAbandoned(String sink, int shard, int batches, long records) {
                delegate.batchesAbandoned(sink, shard, batches, records);
            }

            @Override
            public void refused(Refusal refusal) {
                remember(refusal);
                delegate.acknowledged();
            }
        };
    }

    /**
     * Remembers that {@code refusal}'s destination refused its output in the open transaction, which therefore
     * cannot commit ({@link #failure()}), and releases the output's hold. Any thread.
     */
    void remember(Refusal refusal) {
        RecordMeta source = refusal.source();
        Key key = new Key(refusal.sink(), source.topic(), source.partition(), source.offset(), refusal.output());
        int count;
        synchronized (this) {
            Entry entry = entries.get(key);
            count = entry == null ? 1 : entry.count + 1;
            entries.put(key, new Entry(refusal.error(), count));
            evictBeyondCapacity();
            size = entries.size();
        }
        String what = "sink '" + refusal.sink() + "': the destination refused output " + refusal.output() + " of "
                + source.position() + " (" + count + " of " + attempts + " transactions)";
        refusedInOpen.compareAndSet(
                null,
                new RetryableException(
                        what + ", so the transaction aborts: " + refusal.error().detail(), refusal.error()));
        LOG.warn(
                "{}: {}; {}",
                what,
                refusal.error().detail(),
                count < attempts
                        ? "the transaction aborts and the record is processed again"
                        : "when the record is processed again, its sink's on_error applies instead of a send");
        refusal.owner().release();
    }

    private void evictBeyondCapacity() {
        Iterator<Key> oldest = entries.keySet().iterator();
        while (entries.size() > capacity && oldest.hasNext()) {
            oldest.next();
            oldest.remove();
            if (!warnedFull) {
                warnedFull = true;
                LOG.warn(
                        "more than {} refused outputs remembered: the oldest are forgotten and will be sent again",
                        capacity);
            }
        }
    }

    /**
     * The refusal whose policy applies instead of sending output {@code output} of {@code meta}'s record to
     * {@code sink}: refused in {@code attempts} aborted transactions already. Null otherwise. Pipeline thread.
     */
    public Refused due(String sink, RecordMeta meta, int output) {
        if (size == 0) {
            return null;
        }
        Entry entry;
        synchronized (this) {
            entry = entries.get(new Key(sink, meta.topic(), meta.partition(), meta.offset(), output));
        }
        return entry != null && entry.count >= attempts ? new Refused(entry.error, entry.count) : null;
    }

    /** Why the open transaction cannot commit, or null: an output was refused in it. */
    public RetryableException failure() {
        return refusedInOpen.get();
    }

    /** A transaction begins: refusals in the one before no longer stand in its way. */
    public void transactionBegun() {
        refusedInOpen.set(null);
    }

    /** A transaction committed {@code positions}: the refusals of the records before them are done with. */
    public void committed(Map<SourcePartition, Long> positions) {
        if (size == 0 || positions.isEmpty()) {
            return;
        }
        synchronized (this) {
            entries.keySet().removeIf(k -> {
                Long next = positions.get(new SourcePartition(k.topic, k.partition));
                return next != null && k.offset < next;
            });
            size = entries.size();
        }
    }

    /** Partitions that left this instance: their refusals are the next owner's to find. */
    public void released(Collection<SourcePartition> partitions) {
        if (size == 0 || partitions.isEmpty()) {
            return;
        }
        Set<SourcePartition> gone = Set.copyOf(partitions);
        synchronized (this) {
            entries.keySet().removeIf(k -> gone.contains(new SourcePartition(k.topic, k.partition)));
            size = entries.size();
        }
    }

    /** Refused outputs remembered now. */
    public int size() {
        return size;
    }

    private record Key(String sink, String topic, int partition, long offset, int output) {}

    private record Entry(RecordException error, int count) {}
}
