package io.etl.core.metrics;

/**
 * Meter names used by the framework (Micrometer dotted form; the Prometheus form is shown in each
 * comment). Every meter carries a {@code pipeline} tag; sink meters also {@code sink}, source meters
 * {@code source}.
 */
public final class EtlMetrics {

    /** {@code etl_source_records_total}: records polled, by source. */
    public static final String SOURCE_RECORDS = "etl.source.records";
    /**
     * {@code etl_source_records_unprocessed_total}: records polled but never processed, by source: still
     * buffered when the pipeline stopped, or of partitions revoked or lost before their turn. Their offsets
     * were not committed, so they are read again (by this pipeline or the partition's next owner).
     */
    public static final String SOURCE_RECORDS_UNPROCESSED = "etl.source.records.unprocessed";
    /** {@code etl_source_paused}: 1 while the source is paused by backpressure. */
    public static final String SOURCE_PAUSED = "etl.source.paused";
    /**
     * {@code etl_source_retry_waiting{source}}: retry-topic partitions the source holds paused because their next
     * record is not due yet.
     */
    public static final String SOURCE_RETRY_WAITING = "etl.source.retry.waiting";
    /** {@code etl_records_dropped_total{reason,stage}}: filtered out is not counted; skipped records are. */
    public static final String RECORDS_DROPPED = "etl.records.dropped";
    /** {@code etl_records_filtered_total{stage}}: records a filter let go (done at once, never an error). */
    public static final String RECORDS_FILTERED = "etl.records.filtered";
    /** {@code etl_records_dead_lettered_total{reason,stage}}. */
    public static final String RECORDS_DEAD_LETTERED = "etl.records.dead.lettered";
    /** {@code etl_records_retried_total{reason,stage}}: records sent to a retry topic (policy {@code retry}). */
    public static final String RECORDS_RETRIED = "etl.records.retried";
    /** {@code etl_sink_records_total{sink}}: messages made durable. */
    public static final String SINK_RECORDS = "etl.sink.records";
    /** {@code etl_sink_batches_total{sink,outcome}}: outcome is success, retryable or fatal. */
    public static final String SINK_BATCHES = "etl.sink.batches";
    /** {@code etl_sink_batch_seconds{sink}}: time from write to acknowledgement, per attempt. */
    public static final String SINK_BATCH = "etl.sink.batch";
    /** {@code etl_sink_retries_total{sink}}: batch writes retried. */
    public static final String SINK_RETRIES = "etl.sink.retries";
    /** {@code etl_sink_abandoned_batches_total{sink}}: batches given up at shutdown (they replay). */
    public static final String SINK_ABANDONED_BATCHES = "etl.sink.abandoned.batches";
    /** {@code etl_sink_shard_healthy{sink,shard}}: 0 while the shard's circuit breaker is open. */
    public static final String SINK_SHARD_HEALTHY = "etl.sink.shard.healthy";
    /** {@code etl_sink_inflight_batches{sink}}: batches written and not yet acknowledged. */
    public static final String SINK_INFLIGHT_BATCHES = "etl.sink.inflight.batches";
    /** {@code etl_checkpoint_committed_offset{topic,partition}}: last offset the source confirmed as committed. */
    public static final String CHECKPOINT_COMMITTED_OFFSET = "etl.checkpoint.committed.offset";
    /** {@code etl_checkpoint_pending_records}: records whose outputs are not all durable. */
    public static final String CHECKPOINT_PENDING_RECORDS = "etl.checkpoint.pending.records";
    /**
     * {@code etl_checkpoint_commits_total}: asynchronous offset commits sent while running, each one a request the
     * group coordinator appends to {@code __consumer_offsets}.
     */
    public static final String CHECKPOINT_COMMITS = "etl.checkpoint.commits";
    /** {@code etl_transactions_total{outcome}}: exactly-once transactions committed or aborted. */
    public static final String TRANSACTIONS = "etl.transactions";
    /** {@code etl_transaction_commit_seconds}: from the start of a checkpoint to its transaction's commit. */
    public static final String TRANSACTION_COMMIT = "etl.transaction.commit";
    /** {@code etl_transaction_records}: messages written per committed transaction. */
    public static final String TRANSACTION_RECORDS = "etl.transaction.records";
    /**
     * {@code etl_checkpoint_replay_window_records}: records acknowledged by the sinks (or dropped) but not yet
     * committed, over the assigned partitions: what a crash now would process again on top of what is in flight.
     */
    public static final String CHECKPOINT_REPLAY_WINDOW = "etl.checkpoint.replay.window.records";
    /**
     * {@code etl_checkpoint_last_commit_age_seconds}: seconds since the source last confirmed a commit; NaN before the
     * first. It grows while no input arrives (nothing to commit) as well as while commits are stuck.
     */
    public static final String CHECKPOINT_LAST_COMMIT_AGE = "etl.checkpoint.last.commit.age";

    /**
     * {@code etl_route_records_total{sink,topic}}: messages a route wrote to each topic, counted when their batch
     * was acknowledged (a batch written again counts again).
     */
    public static final String ROUTE_RECORDS = "etl.route.records";
    /** {@code etl_route_topics{sink}}: topics a route has open (at most its {@code max_topics}). */
    public static final String ROUTE_TOPICS = "etl.route.topics";
    /** {@code etl_stage_inflight{stage}}: calls in flight in an asynchronous stage. */
    public static final String STAGE_INFLIGHT = "etl.stage.inflight";
    /**
     * {@code etl_stage_queued{stage}}: records an asynchronous stage holds that are not in flight (waiting for a
     * slot, behind their key, or in partition order behind a slower record).
     */
    public static final String STAGE_QUEUED = "etl.stage.queued";
    /** {@code etl_stage_call_seconds{stage,outcome}}: duration of an asynchronous stage's calls (success, failure, timeout). */
    public static final String STAGE_CALL = "etl.stage.call";
    /** {@code etl_stage_retries_total{stage}}: calls made again after a retryable failure or a timeout. */
    public static final String STAGE_RETRIES = "etl.stage.retries";
    /** {@code etl_stage_timeouts_total{stage}}: calls that took longer than the stage's timeout. */
    public static final String STAGE_TIMEOUTS = "etl.stage.timeouts";
    /** {@code etl_stage_rate_limit_wait_seconds{stage}}: waits of calls for a permit of the stage's rate limit. */
    public static final String STAGE_RATE_LIMIT_WAIT = "etl.stage.rate.limit.wait";
    /**
     * {@code etl_stage_stalled{stage}}: 1 while an asynchronous stage holds records and none of its calls succeeded
     * for its {@code stall_after}.
     */
    public static final String STAGE_STALLED = "etl.stage.stalled";

    /** Tag names. */
    public static final String TAG_PIPELINE = "pipeline";

    public static final String TAG_SINK = "sink";
    public static final String TAG_SOURCE = "source";
    public static final String TAG_SHARD = "shard";
    public static final String TAG_OUTCOME = "outcome";
    public static final String TAG_REASON = "reason";
    public static final String TAG_STAGE = "stage";
    public static final String TAG_TOPIC = "topic";
    public static final String TAG_PARTITION = "partition";
    /**
     * The pipeline loop (1, 2, ...) a meter belongs to, on every meter of a loop when {@code pipeline.threads} is
     * more than 1; absent with one loop. Meters of things the loops share (a producer) do not carry it.
     */
    public static final String TAG_THREAD = "thread";

    private EtlMetrics() {}
}
