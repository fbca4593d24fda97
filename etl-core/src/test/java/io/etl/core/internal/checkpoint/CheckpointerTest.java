package io.etl.core.internal.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etl.core.source.SourcePartition;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class CheckpointerTest {

    private static final SourcePartition P0 = new SourcePartition("in", 0);

    @Test
    void committedOffsetNeverPassesAnUnacknowledgedRecordWhateverTheAckOrder() {
        Random random = new Random(20261129L);
        for (int round = 0; round < 5_000; round++) {
            runRandomRound(random, round);
        }
    }

    /**
     * Processes records with 0..3 outputs each, puts the outputs into batches of random size, acknowledges
     * the batches in random order, and after every acknowledgement checks the watermark against the truth.
     */
    private static void runRandomRound(Random random, int round) {
        Checkpointer checkpointer = assignedP0();
        PartitionTracker tracker = checkpointer.tracker(P0);
        int records = 1 + random.nextInt(60);
        long firstOffset = random.nextInt(1000);
        List<PendingRecord> all = new ArrayList<>();
        List<List<PendingRecord>> batches = new ArrayList<>();
        List<PendingRecord> open = new ArrayList<>();
        int[] outputsOf = new int[records];
        int[] ackedOf = new int[records];
        for (int i = 0; i < records; i++) {
            long offset = firstOffset + i + (random.nextInt(4) == 0 ? random.nextInt(3) : 0) * 0L;
            PendingRecord r = new PendingRecord(offset);
            all.add(r);
            int outputs = random.nextInt(4);
            outputsOf[i] = outputs;
            for (int o = 0; o < outputs; o++) {
                r.retain();
                open.add(r);
                if (random.nextInt(3) == 0) {
                    batches.add(open);
                    open = new ArrayList<>();
                }
            }
            r.releaseOnPipeline();
            tracker.processed(r);
        }
        if (!open.isEmpty()) {
            batches.add(open);
        }
        Collections.shuffle(batches, random);
        long lastCommitted = -1;
        for (List<PendingRecord> batch : batches) {
            for (PendingRecord r : batch) {
                r.release();
                ackedOf[all.indexOf(r)]++;
            }
            Map<SourcePartition, Long> advanced = commitAndConfirm(checkpointer);
            long watermark = advanced.getOrDefault(P0, lastCommitted);
            assertThat(watermark)
                    .as("round %d: commits never go backwards", round)
                    .isGreaterThanOrEqualTo(lastCommitted);
            lastCommitted = watermark;
            long firstNotDone = firstOffset + records;
            for (int i = 0; i < records; i++) {
                if (ackedOf[i] < outputsOf[i]) {
                    firstNotDone = all.get(i).offset();
                    break;
                }
            }
            assertThat(watermark)
                    .as("round %d: watermark must not pass the first unacknowledged record", round)
                    .isLessThanOrEqualTo(firstNotDone);
        }
        assertThat(checkpointer.watermarks(List.of(P0))).containsEntry(P0, firstOffset + records);
        assertThat(checkpointer.allIdle()).isTrue();
    }

    @Test
    void recordWithManyOutputsIsDoneOnlyWhenAllAreDurable() {
        Checkpointer checkpointer = assignedP0();
        PartitionTracker tracker = checkpointer.tracker(P0);
        PendingRecord r = new PendingRecord(7);
        r.retain();
        r.retain();
        r.releaseOnPipeline();
        tracker.processed(r);

        r.release();
        assertThat(commitAndConfirm(checkpointer))
                .as("still at the first record: no progress to commit")
                .doesNotContainKey(P0);
        r.release();
        assertThat(commitAndConfirm(checkpointer)).containsEntry(P0, 8L);
    }

    @Test
    void aRecordIsDoneOnlyWhenHoldsOfBothKindsAreReleased() {
        PendingRecord r = new PendingRecord(3);
        r.retainOnPipeline(); // an output whose writes the pipeline thread settles
        r.retain(); // an output a worker thread settles
        r.releaseOnPipeline(); // the chain is done with the record
        r.release();
        assertThat(r.isDone())
                .as("the pipeline thread's output is still pending")
                .isFalse();
        r.handOffHold(); // that output was refused: whoever carries out the refusal ends it
        assertThat(r.isDone()).isFalse();
        r.release();
        assertThat(r.isDone()).isTrue();
    }

    @Test
    void filteredRecordsAreDoneAtOnce() {
        Checkpointer checkpointer = assignedP0();
        PartitionTracker tracker = checkpointer.tracker(P0);
        doneRecords(tracker, 0, 10);
        assertThat(tracker.watermark()).isEqualTo(10L);
        assertThat(tracker.pendingCount())
                .as("done records leave once the watermark passes them")
                .isZero();
        assertThat(checkpointer.pendingRecords()).isZero();
        assertThat(commitAndConfirm(checkpointer)).containsEntry(P0, 10L);
    }

    @Test
    void acknowledgementsForAReleasedPartitionCommitNothingInTheNextAssignment() {
        Checkpointer checkpointer = assignedP0();
        PendingRecord old = new PendingRecord(5);
        old.retain();
        old.releaseOnPipeline();
        checkpointer.tracker(P0).processed(old);
        checkpointer.released(List.of(P0));

        checkpointer.assigned(List.of(P0));
        PendingRecord fresh = new PendingRecord(5);
        fresh.retain();
        fresh.releaseOnPipeline();
        checkpointer.tracker(P0).processed(fresh);
        old.release();

        assertThat(commitAndConfirm(checkpointer)).doesNotContainKey(P0);
        fresh.release();
        assertThat(commitAndConfirm(checkpointer)).containsEntry(P0, 6L);
    }

    @Test
    void releasingMoreThanRetainedIsABug() {
        PendingRecord r = new PendingRecord(1);
        r.retain();
        r.release();
        assertThatThrownBy(r::release).isInstanceOf(IllegalStateException.class).hasMessageContaining("offset 1");
        r.releaseOnPipeline();
        assertThatThrownBy(r::releaseOnPipeline)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("offset 1");
        assertThat(r.isDone()).as("a refused release changes nothing").isTrue();
    }

    /** Sends the next commit and confirms it at once, as a source whose commits all succeed. */
    private static Map<SourcePartition, Long> commitAndConfirm(Checkpointer checkpointer) {
        CheckpointCommit commit = checkpointer.nextCommit();
        checkpointer.confirmed(commit, commit.offsets());
        return commit.offsets();
    }

    /** A checkpointer that has just been assigned {@code P0}. */
    private static Checkpointer assignedP0() {
        Checkpointer checkpointer = new Checkpointer();
        checkpointer.assigned(List.of(P0));
        return checkpointer;
    }

    /** Hands the tracker records {@code from} to {@code to} (exclusive), each done at once (filtered out). */
    private static void doneRecords(PartitionTracker tracker, long from, long to) {
        for (long offset = from; offset < to; offset++) {
            doneRecord(tracker, offset);
        }
    }

    private static void doneRecord(PartitionTracker tracker, long offset) {
        PendingRecord r = new PendingRecord(offset);
        r.releaseOnPipeline();
        tracker.processed(r);
    }

    @Test
    void offsetsCountAsCommittedOnlyOnceConfirmed() {
        Checkpointer checkpointer = assignedP0();
        doneRecord(checkpointer.tracker(P0), 0);
        doneRecord(checkpointer.tracker(P0), 1);

        CheckpointCommit failed = checkpointer.nextCommit();
        assertThat(failed.offsets()).containsEntry(P0, 2L);
        // the source reported a failure: nothing is confirmed, so the same offsets go out again
        assertThat(checkpointer.nextCommit().offsets()).containsEntry(P0, 2L);
        assertThat(checkpointer.tracker(P0).committed()).isEqualTo(-1L);

        CheckpointCommit retry = checkpointer.nextCommit();
        assertThat(checkpointer.confirmed(retry, retry.offsets())).containsEntry(P0, 2L);
        assertThat(checkpointer.tracker(P0).committed()).isEqualTo(2L);
        assertThat(checkpointer.nextCommit().isEmpty()).isTrue();
    }

    @Test
    void aLateConfirmationNeverTouchesTheNextAssignmentOfAPartition() {
        Checkpointer checkpointer = assignedP0();
        doneRecord(checkpointer.tracker(P0), 0);
        CheckpointCommit sent = checkpointer.nextCommit();
        checkpointer.released(List.of(P0));
        checkpointer.assigned(List.of(P0));

        assertThat(checkpointer.confirmed(sent, sent.offsets())).isEmpty();
        assertThat(checkpointer.tracker(P0).committed()).isEqualTo(-1L);
    }

    @Test
    void replayWindowCountsDoneRecordsNotYetConfirmedAsCommitted() {
        Checkpointer checkpointer = assignedP0();
        PartitionTracker tracker = checkpointer.tracker(P0);
        doneRecords(tracker, 100, 110);
        PendingRecord inFlight = new PendingRecord(110);
        inFlight.retain();
        inFlight.releaseOnPipeline();
        tracker.processed(inFlight);
        assertThat(checkpointer.replayWindow()).isEqualTo(10);

        CheckpointCommit commit = checkpointer.nextCommit();
        assertThat(checkpointer.replayWindow()).as("sent but not confirmed").isEqualTo(10);
        checkpointer.confirmed(commit, commit.offsets());
        assertThat(checkpointer.replayWindow()).isZero();

        inFlight.release();
        doneRecord(tracker, 111);
        assertThat(checkpointer.replayWindow()).isEqualTo(2);
    }
}
