package io.etl.core.internal.chain;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The queue of a stage's call deadlines: completed calls leave it, and it stays bounded behind a slow call. */
class StageDeadlinesTest {

    private static AsyncAttempt attempt(Duration timeout) {
        return new AsyncAttempt(null, null, timeout);
    }

    @Test
    void shouldForgetCallsThatCompletedOnceTheyReachTheHead() {
        StageDeadlines deadlines = new StageDeadlines(10);
        AsyncAttempt first = attempt(Duration.ofHours(1));
        AsyncAttempt second = attempt(Duration.ofHours(1));
        AsyncAttempt third = attempt(Duration.ofHours(1));
        deadlines.started(first);
        deadlines.started(second);
        deadlines.started(third);
        first.set(true);
        second.set(true);

        deadlines.expire(System.nanoTime());

        assertThat(deadlines.size()).isEqualTo(1);
        assertThat(third.get()).as("not due: still running").isFalse();
    }

    @Test
    void shouldStopAtTheFirstCallNotDueEvenWhenLaterOnesCompleted() {
        StageDeadlines deadlines = new StageDeadlines(10);
        AsyncAttempt slow = attempt(Duration.ofHours(1));
        deadlines.started(slow);
        AsyncAttempt done = attempt(Duration.ofHours(1));
        deadlines.started(done);
        done.set(true);

        deadlines.expire(System.nanoTime());

        assertThat(deadlines.size()).isEqualTo(2);
        assertThat(slow.get()).isFalse();
    }

    @Test
    void shouldSweepCompletedCallsWhileASlowCallHoldsTheHead() {
        int concurrency = 8;
        StageDeadlines deadlines = new StageDeadlines(concurrency);
        deadlines.started(attempt(Duration.ofHours(1)));
        for (int i = 0; i < 10_000; i++) {
            AsyncAttempt quick = attempt(Duration.ofHours(1));
            deadlines.started(quick);
            quick.set(true);
        }

        assertThat(deadlines.size()).isLessThanOrEqualTo(4 * concurrency + 64 + 1);
    }
}
