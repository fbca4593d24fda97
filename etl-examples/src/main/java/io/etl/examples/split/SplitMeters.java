package io.etl.examples.split;

import io.etl.core.config.PipelineConfig;
import io.etl.core.metrics.EtlMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a run of the pipeline did, read from its meters: records read, dropped and written per sink; and
 * from those the summary of a service run, which cannot count whole topics (other copies write to them too).
 */
final class SplitMeters {

    private SplitMeters() {}

    /** What this process did, from its meters: records read, dropped and written per branch. */
    static SplitSummary serviceSummary(PipelineConfig config, MeterRegistry registry, long elapsedMs) {
        Map<String, String> topics = SplitTopics.outputs(config);
        Map<String, Long> outputs = new LinkedHashMap<>();
        topics.keySet().forEach(branch -> outputs.put(branch, sinkRecords(registry, branch)));
        return new SplitSummary(
                recordsIn(registry) - unprocessed(registry),
                dropped(registry),
                skipped(registry),
                outputs,
                topics,
                Map.of(),
                elapsedMs);
    }

    /** Records read by the source. */
    static long recordsIn(MeterRegistry registry) {
        return sum(registry, EtlMetrics.SOURCE_RECORDS);
    }

    /**
     * Records read but not processed when the pipeline stopped (or lost with a revoked partition): not
     * committed, so read again by the next run; the service summary leaves them out of its input.
     */
    static long unprocessed(MeterRegistry registry) {
        return sum(registry, EtlMetrics.SOURCE_RECORDS_UNPROCESSED);
    }

    /** Records dropped on purpose: filtered out, or skipped by an error policy. */
    static long dropped(MeterRegistry registry) {
        return sum(registry, EtlMetrics.RECORDS_FILTERED) + skipped(registry);
    }

    /** Records skipped by an error policy. */
    static long skipped(MeterRegistry registry) {
        return sum(registry, EtlMetrics.RECORDS_DROPPED);
    }

    /** Messages the sink {@code sink} wrote. */
    static long sinkRecords(MeterRegistry registry, String sink) {
        return (long) registry.find(EtlMetrics.SINK_RECORDS).tag(EtlMetrics.TAG_SINK, sink).counters().stream()
                .mapToDouble(Counter::count)
                .sum();
    }

    private static long sum(MeterRegistry registry, String name) {
        return (long) registry.find(name).counters().stream()
                .mapToDouble(Counter::count)
                .sum();
    }
}
