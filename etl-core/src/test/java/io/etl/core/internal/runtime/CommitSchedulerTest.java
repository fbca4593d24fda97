package io.etl.core.internal.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.core.internal.checkpoint.Checkpointer;
import io.etl.core.internal.checkpoint.PendingRecord;
import io.etl.core.source.CommitCallback;
import io.etl.core.source.Source;
import io.etl.core.source.SourcePartition;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** When commits are sent, and when the outcome of the one in flight is asked for. */
class CommitSchedulerTest {

    private static final SourcePartition P0 = new SourcePartition("in", 0);
    private static final long FLOOR = Duration.ofMillis(10).toNanos();

    /** A source whose asynchronous commits complete only when it is asked to complete them. */
    private static final class HeldCommits extends FixtureSource {
        final ArrayDeque<Runnable> outcomes = new ArrayDeque<>();
        int commits;
        int completions;

        HeldCommits() {
            super(List.of());
        }

        @Override
        public void commit(Map<SourcePartition, Long> offsets, boolean sync, CommitCallback done) {
            commits++;
            outcomes.add(() -> done.completed(offsets, null));
        }

        @Override
        public void completeCommits() {
            completions++;
            Runnable outcome;
            while ((outcome = outcomes.poll()) != null) {
                outcome.run();
            }
        }
    }

    @Test
    void asksForTheOutcomeOfACommitInFlightOnlyOnceTheNextOneMayBeSent() {
        HeldCommits source = new HeldCommits();
        Checkpointer checkpointer = assignedP0();
        CommitScheduler commits = startedAt0(source, checkpointer);
        long offset = 0;

        process(checkpointer, offset++);
        commits.commitIfDue(0);
        assertThat(source.commits).isEqualTo(1);
        assertThat(commits.inFlight()).isTrue();

        // between two records, many times, before the floor: nothing to send yet, so nothing is asked
        for (long now = 1; now < FLOOR; now += FLOOR / 100) {
            process(checkpointer, offset++);
            commits.commitIfDue(now);
        }
        assertThat(source.completions).isZero();
        assertThat(source.commits).isEqualTo(1);

        // at the floor the outcome is taken and the watermarks that moved meanwhile go out at once
        commits.commitIfDue(FLOOR);
        assertThat(source.completions).isEqualTo(1);
        assertThat(source.commits).isEqualTo(2);
        assertThat(commits.committedOffsets()).containsEntry(P0, 1L);
    }

    @Test
    void keepsAskingAfterTheFloorUntilTheCommitInFlightCompletes() {
        HeldCommits source = new HeldCommits();
        Checkpointer checkpointer = assignedP0();
        CommitScheduler commits = startedAt0(source, checkpointer);
        process(checkpointer, 0);
        commits.commitIfDue(0);
        Runnable late = source.outcomes.poll(); // its answer has not arrived yet
        process(checkpointer, 1);

        commits.commitIfDue(FLOOR);
        commits.commitIfDue(FLOOR + 1);
        assertThat(source.completions).isEqualTo(2);
        assertThat(source.commits).as("one commit in flight at a time").isEqualTo(1);

        source.outcomes.add(late);
        commits.commitIfDue(FLOOR + 2);
        assertThat(source.completions).isEqualTo(3);
        assertThat(source.commits).isEqualTo(2);
    }

    private static Checkpointer assignedP0() {
        Checkpointer checkpointer = new Checkpointer();
        checkpointer.assigned(List.of(P0));
        return checkpointer;
    }

    /** A scheduler with the floor {@link #FLOOR}, started at time 0: its first commit is due at once. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static CommitScheduler startedAt0(HeldCommits source, Checkpointer checkpointer) {
        CommitScheduler commits = new CommitScheduler(
                "p", (Source) source, checkpointer, Duration.ofNanos(FLOOR), new SimpleMeterRegistry(), Tags.empty());
        commits.start(0);
        return commits;
    }

    private static void process(Checkpointer checkpointer, long offset) {
        PendingRecord record = new PendingRecord(offset);
        record.releaseOnPipeline(); // no output: done at once
        checkpointer.tracker(P0).processed(record);
    }
}
