package io.etl.kafka.source.it;

import io.etl.core.metrics.EtlMetrics;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Samples an in-process pipeline's gauges every 50 ms and keeps what the fault tests assert on: the largest
 * number of pending records and in-flight batches, whether the source was paused, and whether a shard's
 * breaker opened and later closed again.
 */
final class PoolGauges implements AutoCloseable {

    private final MeterRegistry registry;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "pool-gauges");
        t.setDaemon(true);
        return t;
    });
    private volatile double maxPending;
    private volatile double maxInflight;
    private volatile boolean paused;
    private volatile boolean opened;
    private volatile boolean closedAfterOpen;
    private volatile int samples;

    private PoolGauges(MeterRegistry registry) {
        this.registry = registry;
    }

    static PoolGauges start(MeterRegistry registry) {
        PoolGauges gauges = new PoolGauges(registry);
        gauges.timer.scheduleWithFixedDelay(gauges::sample, 0, 50, TimeUnit.MILLISECONDS);
        return gauges;
    }

    private void sample() {
        maxPending = Math.max(maxPending, sum(EtlMetrics.CHECKPOINT_PENDING_RECORDS));
        maxInflight = Math.max(maxInflight, sum(EtlMetrics.SINK_INFLIGHT_BATCHES));
        paused |= sum(EtlMetrics.SOURCE_PAUSED) > 0;
        double healthy = registry.find(EtlMetrics.SINK_SHARD_HEALTHY).gauges().stream()
                .mapToDouble(Gauge::value)
                .min()
                .orElse(1);
        if (healthy == 0) {
            opened = true;
        } else if (opened) {
            closedAfterOpen = true;
        }
        samples++;
    }

    private double sum(String name) {
        return registry.find(name).gauges().stream()
                .mapToDouble(Gauge::value)
                .filter(v -> !Double.isNaN(v))
                .sum();
    }

    /** Clears what was seen, to watch a new phase. */
    void reset() {
        maxPending = 0;
        maxInflight = 0;
        paused = false;
        opened = false;
        closedAfterOpen = false;
    }

    double maxPending() {
        return maxPending;
    }

    double maxInflight() {
        return maxInflight;
    }

    boolean paused() {
        return paused;
    }

    boolean breakerOpened() {
        return opened;
    }

    boolean breakerClosedAfterOpening() {
        return closedAfterOpen;
    }

    int samples() {
        return samples;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }

    @Override
    public String toString() {
        return String.format(
                "max pending %.0f, max in-flight batches %.0f, paused %b, breaker opened %b, closed again %b"
                        + " (%d samples)",
                maxPending, maxInflight, paused, opened, closedAfterOpen, samples);
    }
}
