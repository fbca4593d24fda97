package io.etl.core.source;

import io.etl.core.error.ErrorPolicy;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The source SPI. All methods are called from one pipeline thread, so an implementation needs no
 * locking; commits requested by the checkpointer are carried out on that thread too. A pipeline that runs
 * several loops ({@code pipeline.threads}) runs one source per loop, made with {@link #forLoop}.
 *
 * @param <T> value type
 */
public interface Source<T> {

    /** Unique name within the pipeline. */
    String name();

    /** What happens to a record that fails to decode (default {@link ErrorPolicy#FAIL}). */
    default ErrorPolicy errorPolicy() {
        return ErrorPolicy.FAIL;
    }

    /** The longest single {@link #poll} wait the pipeline asks for (default 100 ms). */
    default Duration pollTimeout() {
        return Duration.ofMillis(100);
    }

    /**
     * A new source with the same settings, not opened, for loop {@code loop} (1 to {@code loops}) of a pipeline
     * that runs {@code loops} loops in one process ({@code pipeline.threads}): each loop polls its own source, as
     * a member of the same group, so a source of a group-managed system spreads its partitions over the loops as
     * over processes. What the copies share (a decoder) is used from several threads at once. Called before any
     * source is opened, once per loop.
     *
     * @throws UnsupportedOperationException when this source runs on one loop only (the default)
     */
    default Source<T> forLoop(int loop, int loops) {
        throw new UnsupportedOperationException(
                "source '" + name() + "' runs on one loop only (" + getClass().getSimpleName() + ")");
    }

    /** Connects and subscribes. Called once before the first poll; may fail with a config error. */
    void open(SourceContext context);

    /**
     * Waits at most {@code timeout} for records and hands every one to {@code output} in partition order.
     * Rebalance callbacks happen inside this call.
     */
    void poll(Duration timeout, SourceOutput<T> output);

    /**
     * Commits, for each partition, the next offset to read, and tells {@code done} exactly once how it went:
     * before returning when {@code sync}, otherwise from a later {@link #poll}, {@link #completeCommits} (or
     * {@link #close}).
     * Partitions no longer assigned are left out. A failure that the pipeline cannot outlive may also be
     * thrown from here or from the next poll.
     */
    void commit(Map<SourcePartition, Long> offsets, boolean sync, CommitCallback done);

    /**
     * Tells {@code done} of the asynchronous commits that completed since the last call, without reading
     * records. The pipeline calls it between the records of one poll while a commit is in flight, so that a
     * long poll does not hold back the next commit (and a crash replays less). The default does nothing:
     * outcomes then arrive with the next poll.
     */
    default void completeCommits() {}

    /**
     * Moves the read position of assigned partitions to {@code offsets} (the next offset to read), dropping
     * anything already fetched beyond it; partitions no longer assigned are ignored. Exactly-once mode calls
     * it after an aborted transaction, to read again from the last committed positions.
     *
     * @throws UnsupportedOperationException when the source cannot seek (the default)
     */
    default void seek(Map<SourcePartition, Long> offsets) {
        throw new UnsupportedOperationException("source '" + name() + "' cannot seek");
    }

    /**
     * Why the source cannot hand over records for now although nothing holds it back (for example a record that
     * waits for a schema registry to answer), or empty. Health checks report it: a waiting pipeline is not
     * ready. Unlike the other methods it may be called from any thread. The default never waits.
     */
    default Optional<String> waitingFor() {
        return Optional.empty();
    }

    /** Stops returning records from every assigned partition (and from ones assigned later) until resumed. */
    void pause();

    /** Undoes {@link #pause()}. */
    void resume();

    /**
     * Leaves the group and releases resources within {@code timeout}. The pipeline has drained and committed
     * before it calls this, so the {@link PartitionListener} must not be called from here: partitions given
     * up while closing need no further commit.
     */
    void close(Duration timeout);
}
