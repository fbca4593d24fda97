package io.etl.kafka.source.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.core.error.RetryableException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class DecodeWaitTest {

    private static final TopicPartition TP = new TopicPartition("payments", 2);
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    @Test
    void shouldHoldUntilTheBackoffHasPassedThenFetchAgain() {
        DecodeWait wait = new DecodeWait("in");
        wait.failed(TP, 7, new RetryableException("registry down"), 0);

        assertThat(wait.holding()).isTrue();
        assertThat(wait.reason()).contains("payments-2@7", "registry down");
        assertThat(wait.due(99 * MS)).isFalse();
        assertThat(wait.due(100 * MS)).isTrue();
        assertThat(wait.holding()).isFalse();
        assertThat(wait.waiting()).isTrue();
    }

    @Test
    void shouldDoubleTheBackoffUpToItsCap() {
        DecodeWait wait = new DecodeWait("in");
        long now = 0;
        long[] expected = {100, 200, 400, 800, 1600, 3200, 5000, 5000};
        for (long backoff : expected) {
            wait.failed(TP, 7, new RetryableException("down"), now);
            assertThat(wait.due(now + (backoff - 1) * MS))
                    .as("before %d ms", backoff)
                    .isFalse();
            assertThat(wait.due(now + backoff * MS)).as("after %d ms", backoff).isTrue();
            now += backoff * MS;
        }
    }

    @Test
    void shouldEndOnlyWhenTheWaitingRecordOrALaterOneOfItsPartitionHasItsAnswer() {
        DecodeWait wait = new DecodeWait("in");
        wait.failed(TP, 7, new RetryableException("down"), 0);

        wait.decoded("payments", 1, 50, 10 * MS);
        wait.decoded("payments", 2, 6, 10 * MS);
        assertThat(wait.waiting()).isTrue();

        wait.decoded("payments", 2, 7, 10 * MS);
        assertThat(wait.waiting()).isFalse();
        assertThat(wait.reason()).isNull();
    }
}
