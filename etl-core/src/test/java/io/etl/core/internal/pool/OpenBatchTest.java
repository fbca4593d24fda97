package io.etl.core.internal.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etl.core.error.RecordException;
import io.etl.core.internal.checkpoint.PendingRecord;
import io.etl.core.record.RecordMeta;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class OpenBatchTest {

    private static final long NO_BYTE_LIMIT = Long.MAX_VALUE;

    @Test
    void aBatchStartsAtTheLargerOfTheLastSizeAndHalfTheLastRoom() {
        OpenBatch<String> open = new OpenBatch<>(2000, NO_BYTE_LIMIT, System::nanoTime);
        assertThat(open.capacity()).isEqualTo(2000);

        fill(open, 3);
        Batch<String> small = open.seal("s", 0, 1);
        assertThat(small.messages()).containsExactly("m0", "m1", "m2");
        assertThat(small.size()).isEqualTo(3);
        assertThat(open.capacity()).isEqualTo(1000);
        assertThat(open.isEmpty()).isTrue();

        fill(open, 700);
        assertThat(open.seal("s", 0, 2).messages()).hasSize(700);
        assertThat(open.capacity()).isEqualTo(700);

        assertThat(fill(open, 2000)).isTrue();
        assertThat(open.seal("s", 0, 3).messages()).hasSize(2000);
        assertThat(open.capacity()).isEqualTo(2000);
    }

    @Test
    void atAModerateRateTheRoomHalvesDownToTheMinimum() {
        OpenBatch<String> open = new OpenBatch<>(2000, NO_BYTE_LIMIT, System::nanoTime);
        List<Integer> capacities = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            fill(open, 2);
            open.seal("s", 0, i);
            capacities.add(open.capacity());
        }
        assertThat(capacities).containsExactly(1000, 500, 250, 125, 62, 31, 16, 16, 16, 16);
    }

    @Test
    void aSealedBatchIsTheFirstEntriesOfTheArraysItWasGiven() {
        OpenBatch<String> open = new OpenBatch<>(2000, NO_BYTE_LIMIT, System::nanoTime);
        fill(open, 5);
        Batch<String> batch = open.seal("s", 0, 1);

        assertThat(batch.size()).isEqualTo(5);
        assertThat(batch.messages()).containsExactly("m0", "m1", "m2", "m3", "m4");
        assertThat(batch.messages().get(4)).isEqualTo("m4");
        assertThatThrownBy(() -> batch.messages().get(5)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> batch.messages().set(0, "x")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> batch.reject(5, RecordException.of("refused", "by the test", null)))
                .isInstanceOf(IndexOutOfBoundsException.class);
        batch.durablePrefix(100);
        assertThat(batch.durablePrefix()).isEqualTo(5);
    }

    @Test
    void theStartingCapacityIsCapped() {
        OpenBatch<String> open = new OpenBatch<>(100_000, NO_BYTE_LIMIT, System::nanoTime);
        assertThat(open.capacity()).isEqualTo(4096);
        fill(open, 5000);
        assertThat(open.seal("s", 0, 1).messages()).hasSize(5000);
        assertThat(open.capacity()).isEqualTo(4096);
    }

    /** Adds {@code n} messages; true when the last one filled the batch. */
    private static boolean fill(OpenBatch<String> open, int n) {
        boolean full = false;
        for (int i = 0; i < n; i++) {
            full = open.add("m" + i, 10, new PendingRecord(i), new RecordMeta("in", 0, i, -1L, null, List.of()), 0);
        }
        return full;
    }
}
