package io.etl.core.internal.pool;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.core.error.ErrorPolicy;
import io.etl.core.error.RecordException;
import io.etl.core.internal.checkpoint.PendingRecord;
import io.etl.core.record.RecordMeta;
import io.etl.core.sink.SealedBatch;
import io.etl.core.source.SourcePartition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What exactly-once mode remembers of the outputs their destination refused, across the aborts they cause. */
class RefusedOutputsTest {

    private static final RecordMeta AT_7 = RecordMeta.of("in", 0, 7);

    private final RefusedOutputs refused = new RefusedOutputs(3);

    /** The refusal of output {@code output} of {@code source} by sink {@code sink}'s destination, its hold taken. */
    private static Refusal refusal(String sink, RecordMeta source, int output) {
        PendingRecord owner = new PendingRecord(source.offset());
        owner.retain(); // the output's hold; the record's own one is released when the chain is done with it
        owner.releaseOnPipeline();
        RecordException error = RecordException.of(
                        RecordException.PRODUCE, "topic 'out' refused the message: RecordTooLargeException", null)
                .locatedAt(source, sink);
        return new Refusal(sink, ErrorPolicy.DEAD_LETTER, source, output, owner, error, 1);
    }

    @Test
    void anOutputIsDueForItsPolicyOnlyOnceRefusedInAsManyTransactionsAsAllowed() {
        refused.remember(refusal("out", AT_7, 1));
        refused.remember(refusal("out", AT_7, 1));
        assertThat(refused.due("out", AT_7, 1)).isNull();

        refused.remember(refusal("out", AT_7, 1));

        RefusedOutputs.Refused due = refused.due("out", AT_7, 1);
        assertThat(due).isNotNull();
        assertThat(due.attempts()).isEqualTo(3);
        assertThat(due.error().getMessage())
                .isEqualTo(
                        "produce error at in-0@7 in 'out': topic 'out' refused the message: RecordTooLargeException");
        assertThat(refused.due("out", AT_7, 0))
                .as("another output of the record")
                .isNull();
        assertThat(refused.due("other", AT_7, 1)).as("another sink").isNull();
        assertThat(refused.due("out", RecordMeta.of("in", 0, 8), 1))
                .as("another record")
                .isNull();
        assertThat(refused.due("out", RecordMeta.of("in", 1, 7), 1))
                .as("another partition")
                .isNull();
    }

    @Test
    void aRefusalDoomsTheOpenTransactionAndReleasesTheOutputsHold() {
        Refusal r = refusal("out", AT_7, 0);
        assertThat(r.owner().isDone()).isFalse();
        assertThat(refused.failure()).isNull();

        refused.remember(r);

        assertThat(r.owner().isDone()).isTrue();
        assertThat(refused.failure())
                .isNotNull()
                .hasMessageStartingWith("sink 'out': the destination refused output 0 of in-0@7 (1 of 3 transactions)");
        refused.transactionBegun();
        assertThat(refused.failure()).as("the next transaction starts clean").isNull();
        assertThat(refused.size()).as("the refusal itself is kept").isEqualTo(1);
    }

    @Test
    void aCommitForgetsTheRefusalsOfTheRecordsItCoversAndAPartitionThatLeavesItsOwn() {
        refused.remember(refusal("out", RecordMeta.of("in", 0, 5), 0));
        refused.remember(refusal("out", RecordMeta.of("in", 0, 9), 0));
        refused.remember(refusal("out", RecordMeta.of("in", 1, 2), 0));
        refused.remember(refusal("out", RecordMeta.of("in", 2, 3), 0));

        refused.committed(Map.of(new SourcePartition("in", 0), 9L, new SourcePartition("in", 1), 2L));

        assertThat(refused.size()).isEqualTo(3);
        RefusedOutputs once = new RefusedOutputs(1);
        once.remember(refusal("out", RecordMeta.of("in", 0, 9), 0));
        once.remember(refusal("out", RecordMeta.of("in", 2, 3), 0));
        once.released(List.of(new SourcePartition("in", 2)));
        assertThat(once.due("out", RecordMeta.of("in", 0, 9), 0)).isNotNull();
        assertThat(once.due("out", RecordMeta.of("in", 2, 3), 0)).isNull();
        assertThat(once.size()).isEqualTo(1);
    }

    @Test
    void pastItsCapacityTheOldestRefusalIsForgotten() {
        RefusedOutputs small = new RefusedOutputs(1, 2);
        small.remember(refusal("out", RecordMeta.of("in", 0, 1), 0));
        small.remember(refusal("out", RecordMeta.of("in", 0, 2), 0));
        small.remember(refusal("out", RecordMeta.of("in", 0, 1), 0)); // a repeat keeps its place
        small.remember(refusal("out", RecordMeta.of("in", 0, 3), 0));

        assertThat(small.size()).isEqualTo(2);
        assertThat(small.due("out", RecordMeta.of("in", 0, 1), 0)).isNull();
        assertThat(small.due("out", RecordMeta.of("in", 0, 2), 0)).isNotNull();
        assertThat(small.due("out", RecordMeta.of("in", 0, 3), 0)).isNotNull();
    }

    @Test
    void theRememberingEventsTakeRefusalsAndPassEverythingElseOn() {
        List<String> seen = new ArrayList<>();
        PoolEvents delegate = new PoolEvents() {
            @Override
            public void acknowledged() {
                seen.add("acknowledged");
            }

            @Override
            public void writeCompleted() {
                seen.add("write completed");
            }

            @Override
            public void batchFailed(SealedBatch<?> batch, Throwable cause) {
                seen.add("failed " + cause.getMessage());
            }

            @Override
            public void batchesAbandoned(String sink, int shard, int batches, long records) {
                seen.add("abandoned " + sink);
            }

            @Override
            public void refused(Refusal refusal) {
                seen.add("refused");
            }
        };
        PoolEvents events = refused.remembering(delegate);

        events.refused(refusal("out", AT_7, 0));
        events.writeCompleted();
        events.batchFailed(null, new IllegalStateException("boom"));
        events.batchesAbandoned("out", 0, 1, 1);

        assertThat(seen).containsExactly("acknowledged", "write completed", "failed boom", "abandoned out");
        assertThat(refused.size()).isEqualTo(1);
    }
}
