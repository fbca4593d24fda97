package io.etl.kafka.source;

/**
 * Meters a {@link KafkaSource} adds to the core's {@code etl_source_*} ones (Micrometer dotted names; the
 * Prometheus form in each comment). Each carries the pipeline's tags: {@code pipeline}, {@code source} and the
 * configured {@code metrics.common_tags}.
 */
public final class KafkaSourceMetrics {

    /**
     * {@code etl_kafka_source_rebalances_total{event}}: rebalance callbacks that moved partitions, by
     * {@code event} = {@code assigned}, {@code revoked} or {@code lost}.
     */
    public static final String REBALANCES = "etl.kafka.source.rebalances";
    /**
     * {@code etl_kafka_source_assigned_partitions}: partitions currently assigned to this instance (removed when
     * the source closes; the counters stay).
     */
    public static final String ASSIGNED_PARTITIONS = "etl.kafka.source.assigned.partitions";
    /**
     * {@code etl_kafka_source_commits_total{outcome}}: offset commits by {@code outcome}: {@code success},
     * {@code failure}, or {@code rebalancing} (an asynchronous commit the group refused while rebalancing; the
     * next commit covers it).
     */
    public static final String COMMITS = "etl.kafka.source.commits";
    /**
     * {@code etl_kafka_source_records_lag_max}: the consumer's own {@code records-lag-max}, the largest lag in
     * records over the assigned partitions ({@code NaN} until the first fetch).
     */
    public static final String RECORDS_LAG_MAX = "etl.kafka.source.records.lag.max";

    /**
     * {@code etl_kafka_source_offset_gaps_total}: times a partition's reading jumped over records it never read,
     * because they were deleted (retention, {@code deleteRecords}) before it got to them; each is logged at WARN
     * with the partition, the committed offset and where reading went on. Anything above 0 means lost input.
     */
    public static final String OFFSET_GAPS = "etl.kafka.source.offset.gaps";
    /**
     * {@code etl_kafka_source_offset_gap_records_total}: the records those jumps went over (for
     * {@code auto_offset_reset: latest}, up to the log's end).
     */
    public static final String OFFSET_GAP_RECORDS = "etl.kafka.source.offset.gap.records";

    /** Tag of {@link #REBALANCES}. */
    public static final String TAG_EVENT = "event";
    /** Tag of {@link #COMMITS}. */
    public static final String TAG_OUTCOME = "outcome";

    private KafkaSourceMetrics() {}
}
