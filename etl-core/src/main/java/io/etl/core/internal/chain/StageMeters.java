package io.etl.core.internal.chain;

import io.etl.core.metrics.EtlMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The meters of one asynchronous stage: records in flight and queued, call latency by outcome, retries, timeouts,
 * rate-limit waits, and whether it stalled (it holds records and no call succeeded for {@code stall_after}).
 * Written on the pipeline thread, read by any.
 */
final class StageMeters {

    private final Timer succeeded;
    private final Timer failed;
    private final Timer timedOut;
    private final Counter retries;
    private final Counter timeouts;
    private final Timer rateLimitWaits;
    private final Counter filtered;
    private final long stallAfterNanos;

    private volatile int held;
    private volatile int inFlight;
    private volatile long busySinceNanos;
    private volatile long lastSuccessNanos;

    StageMeters(MeterRegistry registry, Tags pipelineTags, String stage, Duration stallAfter, Counter filtered) {
        Tags tags = pipelineTags.and(EtlMetrics.TAG_STAGE, stage);
        this.succeeded = timer(registry, tags, "success");
        this.failed = timer(registry, tags, "failure");
        this.timedOut = timer(registry, tags, "timeout");
        this.retries = registry.counter(EtlMetrics.STAGE_RETRIES, tags);
        this.timeouts = registry.counter(EtlMetrics.STAGE_TIMEOUTS, tags);
        this.rateLimitWaits = Timer.builder(EtlMetrics.STAGE_RATE_LIMIT_WAIT)
                .description("waits of calls for a permit of the stage's rate limit")
                .tags(tags)
                .register(registry);
        this.filtered = filtered;
        this.stallAfterNanos = stallAfter.toNanos();
        Gauge.builder(EtlMetrics.STAGE_INFLIGHT, this, m -> m.inFlight)
                .description("calls in flight in the stage")
                .tags(tags)
                .register(registry);
        Gauge.builder(EtlMetrics.STAGE_QUEUED, this, m -> Math.max(0, m.held - m.inFlight))
                .description("records the stage holds that are not in flight")
                .tags(tags)
                .register(registry);
        Gauge.builder(EtlMetrics.STAGE_STALLED, this, m -> m.stalled(System.nanoTime()) ? 1 : 0)
                .description("1 while the stage holds records and no call succeeded for its stall_after")
                .tags(tags)
                .register(registry);
    }

    private static Timer timer(MeterRegistry registry, Tags tags, String outcome) {
        return Timer.builder(EtlMetrics.STAGE_CALL)
                .description("duration of the stage's calls")
                .tags(tags.and(EtlMetrics.TAG_OUTCOME, outcome))
                .publishPercentileHistogram()
                .register(registry);
    }

    /** The stage went from holding nothing to holding a record. */
    void busySince(long nowNanos) {
        busySinceNanos = nowNanos;
    }

    void held(int records, int calls) {
        held = records;
        inFlight = calls;
    }

    void call(long nanos, boolean ok, boolean timeout) {
        if (timeout) {
            timeouts.increment();
            timedOut.record(nanos, TimeUnit.NANOSECONDS);
        } else {
            (ok ? succeeded : failed).record(nanos, TimeUnit.NANOSECONDS);
        }
    }

    void succeeded(long nowNanos) {
        lastSuccessNanos = nowNanos;
    }

    void retry() {
        retries.increment();
    }

    void rateLimitWait(long nanos) {
        rateLimitWaits.record(nanos, TimeUnit.NANOSECONDS);
    }

    void filtered() {
        filtered.increment();
    }

    /** Whether the stage holds records and none of its calls succeeded for {@code stall_after}. */
    boolean stalled(long nowNanos) {
        if (held == 0) {
            return false;
        }
        long since = Math.max(busySinceNanos, lastSuccessNanos);
        return nowNanos - since > stallAfterNanos;
    }
}
