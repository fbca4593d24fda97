package io.etl.core.internal.runtime;

import io.etl.core.error.FatalException;
import io.etl.core.internal.checkpoint.CheckpointCommit;
import io.etl.core.internal.checkpoint.Checkpointer;
import io.etl.core.metrics.EtlMetrics;
import io.etl.core.source.Source;
import io.etl.core.source.SourcePartition;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * When the watermarks reach the source: asynchronously while running (at most one commit in flight, at least
 * {@code checkpoint.interval} apart), synchronously at the end. Owns what counts as committed (offsets the
 * source confirmed), which other threads read, and the checkpoint gauges. Commits are sent on the pipeline
 * thread, and their callbacks run there too.
 */
final class CommitScheduler {

    private static final Logger LOG = LoggerFactory.getLogger(CommitScheduler.class);

    private final String pipeline;
    private final Source<Object> source;
    private final Checkpointer checkpointer;
    private final MeterRegistry registry;
    private final Tags tags;
    private final long floor;
    private final Map<SourcePartition, Long> committedView = new ConcurrentHashMap<>();
    private final Map<SourcePartition, AtomicLong> committedGauges = new ConcurrentHashMap<>();
    private final AtomicLong pendingGauge = new AtomicLong();
    private final AtomicLong replayGauge = new AtomicLong();
    private final Counter commitsSent;
    private volatile long lastCommitMillis;
    /** An asynchronous commit was sent and its callback has not come yet: at most one at a time. */
    private boolean commitInFlight;

    private long lastCommitNanos;

    CommitScheduler(
            String pipeline,
            Source<Object> source,
            Checkpointer checkpointer,
            Duration interval,
            MeterRegistry registry,
            Tags tags) {
        this.pipeline = pipeline;
        this.source = source;
        this.checkpointer = checkpointer;
        this.floor = interval.toNanos();
        this.registry = registry;
        this.tags = tags;
        Gauge.builder(EtlMetrics.CHECKPOINT_PENDING_RECORDS, pendingGauge, AtomicLong::get)
                .tags(tags)
                .register(registry);
        Gauge.builder(EtlMetrics.CHECKPOINT_REPLAY_WINDOW, replayGauge, AtomicLong::get)
                .tags(tags)
                .register(registry);
        this.commitsSent =
                Counter.builder(EtlMetrics.CHECKPOINT_COMMITS).tags(tags).register(registry);
    }

    /** {@code checkpoint.interval}, the floor between two commits, in nanoseconds. */
    long floorNanos() {
        return floor;
    }

    /** Makes a commit due at once, as when the floor had just passed since the last one. */
    void start(long now) {
        lastCommitNanos = now - floor;
    }

    /** Whether the floor has passed since the last commit was sent. */
    boolean due(long now) {
        return now - lastCommitNanos >= floor;
    }

    /** Notes that a commit (a transaction's) was made at {@code now}. */
    void committedAt(long now) {
        lastCommitNanos = now;
    }

    boolean inFlight() {
        return commitInFlight;
    }

    /** Whether a watermark may move soon: a commit is in flight, or a tracked record is not done yet. */
    boolean expectsProgress() {
        return commitInFlight || !checkpointer.allIdle();
    }

    /**
     * Sends the watermarks that moved, if the floor has passed and the previous commit completed. Before the
     * floor nothing is done: no commit could be sent yet, so the outcome of the one in flight can wait. Once it
     * has passed, a commit still in flight is first given the chance to complete (the source reports outcomes
     * that arrived since its last poll), so the next commit need not wait for the end of a poll. Asking only
     * then keeps the source from reading its connections between every few hundred records.
     */
    void commitIfDue(long now) {
        if (!due(now)) {
            return;
        }
        if (commitInFlight) {
            source.completeCommits();
        }
        if (!commitInFlight) {
            commitAsync(now);
        }
    }

    /** Sends the watermarks that moved, if any; they count as committed only once the source confirms. */
    private void commitAsync(long now) {
        CheckpointCommit next = checkpointer.nextCommit();
        if (next.isEmpty()) {
            return;
        }
        commitInFlight = true;
        lastCommitNanos = now;
        commitsSent.increment();
        source.commit(next.offsets(), false, (stored, error) -> {
            commitInFlight = false;
            if (error == null) {
                publish(checkpointer.confirmed(next, stored));
            } else {
                LOG.debug(
                        "pipeline '{}': commit of {} failed ({}); sent again with the next one",
                        pipeline,
                        stored,
                        error.getMessage());
            }
        });
    }

    /** The final, synchronous commit; a failure is returned, never only logged. */
    Throwable commitSync() {
        CheckpointCommit last = checkpointer.nextCommit();
        refreshGauges();
        if (last.isEmpty()) {
            return null;
        }
        Throwable[] failed = {null};
        source.commit(last.offsets(), true, (stored, error) -> {
            if (error == null) {
                publish(checkpointer.confirmed(last, stored));
            } else {
                failed[0] = error;
            }
        });
        refreshGauges();
        if (failed[0] == null) {
            return null;
        }
        return new FatalException(
                "pipeline '" + pipeline + "': the final commit of " + last.offsets() + " failed: "
                        + failed[0].getMessage() + "; records after the last committed offsets replay after a restart",
                failed[0]);
    }

    /** Offsets that are committed now (confirmed by the source, or committed with a transaction). */
    private void publish(Map<SourcePartition, Long> offsets) {
        lastCommitMillis = System.currentTimeMillis();
        committedView.putAll(offsets);
        updateCommittedGauges(offsets);
    }

    /**
     * The watermarks of {@code partitions}, which are being revoked: the source commits them before letting the
     * partitions go, and the gauges show them.
     */
    Map<SourcePartition, Long> revoking(Collection<SourcePartition> partitions) {
        Map<SourcePartition, Long> offsets = checkpointer.watermarks(partitions);
        updateCommittedGauges(offsets);
        return offsets;
    }

    /**
     * Commits through {@code transaction} (exactly once) the positions after every record done, which then
     * count as committed; when it throws, nothing does.
     */
    void commitInTransaction(Consumer<Map<SourcePartition, Long>> transaction) {
        CheckpointCommit next = checkpointer.nextCommit();
        Map<SourcePartition, Long> positions = next.offsets();
        transaction.accept(positions);
        publish(checkpointer.confirmed(next, positions));
        refreshGauges();
    }

    /** Partitions that are no longer this instance's to report. */
    void forget(Collection<SourcePartition> partitions) {
        partitions.forEach(committedView::remove);
    }

    /** A copy of the committed view, for any thread. */
    Map<SourcePartition, Long> committedOffsets() {
        return Map.copyOf(committedView);
    }

    Optional<Instant> lastCommitTime() {
        long at = lastCommitMillis;
        return at == 0 ? Optional.empty() : Optional.of(Instant.ofEpochMilli(at));
    }

    /** Refreshes the gauges of records pending and of the replay window. */
    void refreshGauges() {
        pendingGauge.set(checkpointer.pendingRecords());
        replayGauge.set(checkpointer.replayWindow());
    }

    private void updateCommittedGauges(Map<SourcePartition, Long> offsets) {
        for (Map.Entry<SourcePartition, Long> e : offsets.entrySet()) {
            committedGauges
                    .computeIfAbsent(e.getKey(), p -> {
                        AtomicLong holder = new AtomicLong();
                        Gauge.builder(EtlMetrics.CHECKPOINT_COMMITTED_OFFSET, holder, AtomicLong::get)
                                .tags(tags.and(
                                        EtlMetrics.TAG_TOPIC,
                                        p.topic(),
                                        EtlMetrics.TAG_PARTITION,
                                        Integer.toString(p.partition())))
                                .register(registry);
                        return holder;
                    })
                    .set(e.getValue());
        }
    }
}
