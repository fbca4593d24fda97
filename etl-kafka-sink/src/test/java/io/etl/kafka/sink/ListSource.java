package io.etl.kafka.sink;

import io.etl.core.record.Header;
import io.etl.core.record.RecordMeta;
import io.etl.core.source.CommitCallback;
import io.etl.core.source.PartitionListener;
import io.etl.core.source.Source;
import io.etl.core.source.SourceContext;
import io.etl.core.source.SourceOutput;
import io.etl.core.source.SourcePartition;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/** A one-partition in-memory source over a fixed list, for sink ITs: records opens, polls and commits. */
final class ListSource<T> implements Source<T> {

    /** One input record. */
    record Entry<T>(byte[] key, T value, List<Header> headers) {}

    private final String topic;
    private final List<Entry<T>> entries;
    private final Map<SourcePartition, Long> committed = new ConcurrentHashMap<>();
    final AtomicInteger polls = new AtomicInteger();
    private volatile int next;
    private boolean paused;

    ListSource(String topic, List<Entry<T>> entries) {
        this.topic = topic;
        this.entries = List.copyOf(entries);
    }

    static <T> ListSource<T> of(String topic, List<T> values) {
        List<Entry<T>> list = new ArrayList<>();
        for (T v : values) {
            list.add(new Entry<>(null, v, List.of()));
        }
        return new ListSource<>(topic, list);
    }

    SourcePartition partition() {
        return new SourcePartition(topic, 0);
    }

    int size() {
        return entries.size();
    }

    Map<SourcePartition, Long> committed() {
        return Map.copyOf(committed);
    }

    @Override
    public String name() {
        return "list";
    }

    @Override
    public void open(SourceContext context) {
        PartitionListener listener = context.listener();
        listener.onAssigned(List.of(partition()));
    }

    @Override
    public void poll(Duration timeout, SourceOutput<T> output) {
        polls.incrementAndGet();
        if (paused || next >= entries.size()) {
            LockSupport.parkNanos(Math.min(timeout.toNanos(), 5_000_000L));
            return;
        }
        int end = Math.min(entries.size(), next + 500);
        for (int i = next; i < end; i++) {
            Entry<T> e = entries.get(i);
            output.emit(e.value(), new RecordMeta(topic, 0, i, 1_700_000_000_000L + i, e.key(), e.headers()));
        }
        next = end;
    }

    @Override
    public void commit(Map<SourcePartition, Long> offsets, boolean sync, CommitCallback done) {
        committed.putAll(offsets);
        done.completed(offsets, null);
    }

    @Override
    public void pause() {
        paused = true;
    }

    @Override
    public void resume() {
        paused = false;
    }

    @Override
    public void close(Duration timeout) {}
}
