package io.etl.core.internal.pool;

import io.etl.core.metrics.EtlMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.TimeUnit;

/** The meters of one sink pool, looked up once so the hot path only increments. */
final class SinkMetrics {

    private final Counter records;
    private final Counter success;
    private final Counter retryable;
    private final Counter fatal;
    private final Counter rewritten;
    private final Counter retries;
    private final Counter abandoned;
    private final Timer batchTime;

    SinkMetrics(MeterRegistry registry, Tags tags) {
        records = registry.counter(EtlMetrics.SINK_RECORDS, tags);
        success = registry.counter(EtlMetrics.SINK_BATCHES, tags.and(EtlMetrics.TAG_OUTCOME, "success"));
        retryable = registry.counter(EtlMetrics.SINK_BATCHES, tags.and(EtlMetrics.TAG_OUTCOME, "retryable"));
        fatal = registry.counter(EtlMetrics.SINK_BATCHES, tags.and(EtlMetrics.TAG_OUTCOME, "fatal"));
        rewritten = registry.counter(EtlMetrics.SINK_BATCHES, tags.and(EtlMetrics.TAG_OUTCOME, "rewritten"));
        retries = registry.counter(EtlMetrics.SINK_RETRIES, tags);
        abandoned = registry.counter(EtlMetrics.SINK_ABANDONED_BATCHES, tags);
        batchTime = Timer.builder(EtlMetrics.SINK_BATCH).tags(tags).register(registry);
    }

    void acknowledged(Batch<?> batch, long nanos) {
        records.increment(batch.size() - batch.refusedCount());
        success.increment();
        batchTime.record(nanos, TimeUnit.NANOSECONDS);
    }

    void rewritten(long nanos) {
        rewritten.increment();
        batchTime.record(nanos, TimeUnit.NANOSECONDS);
    }

    void retried() {
        retryable.increment();
        retries.increment();
    }

    void fatal() {
        fatal.increment();
    }

    void abandoned(int batches) {
        abandoned.increment(batches);
    }
}
