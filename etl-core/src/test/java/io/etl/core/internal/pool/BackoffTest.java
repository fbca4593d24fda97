package io.etl.core.internal.pool;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.core.config.RetryConfig;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class BackoffTest {

    @Test
    void growsExponentiallyUpToTheCap() {
        Backoff backoff = new Backoff(RetryConfig.custom()
                .initialBackoff(Duration.ofMillis(100))
                .maxBackoff(Duration.ofSeconds(1))
                .jitter(0)
                .build());
        assertThat(backoff.delayNanos(1)).isEqualTo(Duration.ofMillis(100).toNanos());
        assertThat(backoff.delayNanos(2)).isEqualTo(Duration.ofMillis(200).toNanos());
        assertThat(backoff.delayNanos(4)).isEqualTo(Duration.ofMillis(800).toNanos());
        assertThat(backoff.delayNanos(5)).isEqualTo(Duration.ofSeconds(1).toNanos());
        assertThat(backoff.delayNanos(60)).isEqualTo(Duration.ofSeconds(1).toNanos());
    }

    @Test
    void jitterStaysWithinItsSpreadAndTheCap() {
        Backoff backoff = new Backoff(RetryConfig.custom()
                .initialBackoff(Duration.ofMillis(100))
                .maxBackoff(Duration.ofMillis(150))
                .jitter(0.5)
                .build());
        for (int i = 0; i < 1000; i++) {
            long first = backoff.delayNanos(1);
            assertThat(first)
                    .isBetween(
                            Duration.ofMillis(50).toNanos(),
                            Duration.ofMillis(150).toNanos());
            assertThat(backoff.delayNanos(3))
                    .isLessThanOrEqualTo(Duration.ofMillis(150).toNanos());
        }
    }

    @Test
    void zeroMaxAttemptsRetriesForEverAndALimitStops() {
        assertThat(new Backoff(RetryConfig.defaults()).mayRetry(1_000_000)).isTrue();
        Backoff limited = new Backoff(RetryConfig.custom().maxAttempts(3).build());
        assertThat(limited.mayRetry(2)).isTrue();
        assertThat(limited.mayRetry(3)).isFalse();
    }
}
