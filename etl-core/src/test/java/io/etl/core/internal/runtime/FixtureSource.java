package io.etl.core.internal.runtime;

import io.etl.core.record.RecordMeta;
import io.etl.core.source.CommitCallback;
import io.etl.core.source.Source;
import io.etl.core.source.SourceContext;
import io.etl.core.source.SourceOutput;
import io.etl.core.source.SourcePartition;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A source for the core's tests: in its first poll it takes partition 0 of the records' topic and emits
 * every prepared record, the value {@code "v" + offset}; later polls return nothing. Commits succeed at once.
 */
public class FixtureSource implements Source<String> {

    private final List<RecordMeta> records;
    private SourceContext context;
    private boolean emitted;

    public FixtureSource(List<RecordMeta> records) {
        this.records = List.copyOf(records);
    }

    /** Called before record {@code index} is emitted (nothing by default). */
    protected void beforeEmit(int index) {}

    @Override
    public String name() {
        return "list";
    }

    @Override
    public Duration pollTimeout() {
        return Duration.ofMillis(5);
    }

    @Override
    public void open(SourceContext ctx) {
        this.context = ctx;
    }

    @Override
    public void poll(Duration timeout, SourceOutput<String> output) {
        if (emitted || records.isEmpty()) {
            return;
        }
        emitted = true;
        context.listener().onAssigned(List.of(new SourcePartition(records.get(0).topic(), 0)));
        for (int i = 0; i < records.size(); i++) {
            beforeEmit(i);
            RecordMeta meta = records.get(i);
            output.emit("v" + meta.offset(), meta);
        }
    }

    @Override
    public void commit(Map<SourcePartition, Long> offsets, boolean sync, CommitCallback done) {
        done.completed(offsets, null);
    }

    @Override
    public void pause() {}

    @Override
    public void resume() {}

    @Override
    public void close(Duration timeout) {}
}
