package io.etl.kafka.source.internal;

import io.etl.core.metrics.EtlMetrics;
import io.etl.core.source.SourceContext;
import io.etl.kafka.source.KafkaSourceConfig;
import io.etl.kafka.source.KafkaSourceMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/**
 * The meters of one Kafka source, tagged like the core's: rebalance and commit counters, the assigned-partitions
 * and lag gauges, and the consumer's own metrics. The gauges are removed on close, so nothing holds the source
 * afterwards.
 */
final class SourceMeters {

    private final MeterRegistry registry;
    private final List<Meter> gauges = new ArrayList<>();
    private final Counter assigned;
    private final Counter revoked;
    private final Counter lost;
    private final Counter commitsOk;
    private final Counter commitsFailed;
    private final Counter commitsDeferred;
    private final Counter offsetGaps;
    private final Counter offsetGapRecords;
    private ConsumerMetrics clientMetrics;

    private SourceMeters(
            SourceContext context,
            String name,
            KafkaSourceConfig config,
            Consumer<byte[], byte[]> consumer,
            AssignedPartitions partitions) {
        this.registry = context.meterRegistry();
        // the pipeline's tags (pipeline, source, metrics.common_tags), so these meters line up with the core's
        Tags tags = (context.tags() == null ? Tags.of(EtlMetrics.TAG_PIPELINE, context.pipeline()) : context.tags())
                .and(EtlMetrics.TAG_SOURCE, name);
        assigned = registry.counter(KafkaSourceMetrics.REBALANCES, tags.and(KafkaSourceMetrics.TAG_EVENT, "assigned"));
        revoked = registry.counter(KafkaSourceMetrics.REBALANCES, tags.and(KafkaSourceMetrics.TAG_EVENT, "revoked"));
        lost = registry.counter(KafkaSourceMetrics.REBALANCES, tags.and(KafkaSourceMetrics.TAG_EVENT, "lost"));
        commitsOk = registry.counter(KafkaSourceMetrics.COMMITS, tags.and(KafkaSourceMetrics.TAG_OUTCOME, "success"));
        commitsFailed =
                registry.counter(KafkaSourceMetrics.COMMITS, tags.and(KafkaSourceMetrics.TAG_OUTCOME, "failure"));
        commitsDeferred =
                registry.counter(KafkaSourceMetrics.COMMITS, tags.and(KafkaSourceMetrics.TAG_OUTCOME, "rebalancing"));
        offsetGaps = registry.counter(KafkaSourceMetrics.OFFSET_GAPS, tags);
        offsetGapRecords = registry.counter(KafkaSourceMetrics.OFFSET_GAP_RECORDS, tags);
        gauges.add(Gauge.builder(KafkaSourceMetrics.ASSIGNED_PARTITIONS, partitions, AssignedPartitions::size)
                .tags(tags)
                .register(registry));
        gauges.add(Gauge.builder(KafkaSourceMetrics.RECORDS_LAG_MAX, consumer, SourceMeters::lagMax)
                .tags(tags)
                .register(registry));
        if (!config.statisticsInterval().isZero()) {
            clientMetrics = ConsumerMetrics.bind(
                    consumer, registry, tags, config.statisticsInterval(), "etl-source-" + name + "-metrics");
        }
    }

    /** Registers the meters of source {@code name} reading with {@code consumer}. */
    static SourceMeters register(
            SourceContext context,
            String name,
            KafkaSourceConfig config,
            Consumer<byte[], byte[]> consumer,
            AssignedPartitions partitions) {
        return new SourceMeters(context, name, config, consumer, partitions);
    }

    void assigned() {
        assigned.increment();
    }

    void revoked() {
        revoked.increment();
    }

    void lost() {
        lost.increment();
    }

    void committed() {
        commitsOk.increment();
    }

    void commitFailed() {
        commitsFailed.increment();
    }

    /** A commit the group refused while it was rebalancing; a later commit covers it. */
    void commitDeferred() {
        commitsDeferred.increment();
    }

    /** A partition's reading jumped over {@code records} records it never read. */
    void offsetGap(long records) {
        offsetGaps.increment();
        offsetGapRecords.increment(records);
    }

    /** Stops refreshing the consumer's metrics: before the consumer closes, so the refresh never reads a closed one. */
    void stopClientMetrics() {
        if (clientMetrics != null) {
            clientMetrics.close();
            clientMetrics = null;
        }
    }

    /** Removes the gauges from the registry. */
    void removeGauges() {
        gauges.forEach(registry::remove);
        gauges.clear();
    }

    /** The consumer's {@code records-lag-max} over all partitions (read from a metrics thread). */
    private static double lagMax(Consumer<byte[], byte[]> consumer) {
        for (Map.Entry<MetricName, ? extends Metric> e : consumer.metrics().entrySet()) {
            MetricName n = e.getKey();
            if (n.name().equals("records-lag-max")
                    && n.group().equals("consumer-fetch-manager-metrics")
                    && !n.tags().containsKey("topic")) {
                Object v = e.getValue().metricValue();
                return v instanceof Number number ? number.doubleValue() : Double.NaN;
            }
        }
        return Double.NaN;
    }
}
