package io.etl.testkit.driver;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The clock a {@link PipelineTestDriver} runs on, which only the test moves. It reads as a {@link Clock} that stands
 * still until {@link #advance(Duration)}: the timestamps of records a {@link TestSource} pipes come from it, and a
 * pipeline's own code can be given it wherever it asks for the time. The pipeline's timers (how long a batch lingers,
 * when the next commit is due, how long a partition may stall behind a failed batch) run on the JVM's clock plus
 * every advance, so advancing past one of them fires it at the pipeline's next turn instead of after a real wait.
 *
 * <pre>{@code
 * TestClock clock = driver.clock();
 * in.send("k", order);                              // stamped clock.millis()
 * clock.advance(Duration.ofSeconds(30));            // a 30 s stalled_fail_after passes at once
 * }</pre>
 */
public final class TestClock extends Clock {

    private final long startMillis;
    private final ZoneId zone;
    private final AtomicLong advancedNanos;

    private TestClock(long startMillis, ZoneId zone, AtomicLong advancedNanos) {
        this.startMillis = startMillis;
        this.zone = zone;
        this.advancedNanos = advancedNanos;
    }

    /** A clock standing at {@code start}, in UTC. */
    public static TestClock at(Instant start) {
        return new TestClock(Objects.requireNonNull(start, "start").toEpochMilli(), ZoneOffset.UTC, new AtomicLong());
    }

    /** Moves the clock forward by {@code amount}, at once. */
    public TestClock advance(Duration amount) {
        Objects.requireNonNull(amount, "amount");
        if (amount.isNegative()) {
            throw new IllegalArgumentException("a test clock only moves forward; got " + amount);
        }
        advancedNanos.addAndGet(amount.toNanos());
        return this;
    }

    /** How far the test has moved the clock since it was created. */
    public Duration advanced() {
        return Duration.ofNanos(advancedNanos.get());
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis());
    }

    @Override
    public long millis() {
        return startMillis + advancedNanos.get() / 1_000_000;
    }

    @Override
    public ZoneId getZone() {
        return zone;
    }

    /** The same clock (advancing one advances both) seen in another zone. */
    @Override
    public TestClock withZone(ZoneId other) {
        return new TestClock(startMillis, Objects.requireNonNull(other, "zone"), advancedNanos);
    }

    /** The pipeline's timers' reading: the JVM's monotonic clock plus every advance. */
    long engineNanos() {
        return System.nanoTime() + advancedNanos.get();
    }

    @Override
    public String toString() {
        return "TestClock[" + instant() + ", advanced " + advanced() + "]";
    }
}
