package io.etl.core.internal.chain;

import io.etl.core.config.AsyncOrdering;
import io.etl.core.config.PipelineSection;
import io.etl.core.config.StageConfig;
import io.etl.core.error.ErrorPolicy;
import io.etl.core.internal.dsl.OperatorSpec;
import java.time.Duration;

/**
 * The settings an asynchronous stage runs with: those given in code, each key that {@code pipeline.stages.<name>}
 * sets replaced, the rest at their defaults.
 *
 * @param concurrency records in flight at most
 * @param ordering    what is kept in order
 * @param timeout     longest call, zero for none
 * @param attempts    calls of one record while they fail retryably
 * @param backoff     wait before the first retry, doubled for each further one
 * @param rateLimit   calls started per second at most, 0 for no limit
 * @param queue       records held besides those in flight
 * @param keyQueue    records one key may hold waiting (key order)
 * @param stallAfter  how long without a successful call before the stage counts as stalled
 * @param policy      what a record whose call failed for good does
 */
record StageSettings(
        int concurrency,
        AsyncOrdering ordering,
        Duration timeout,
        int attempts,
        Duration backoff,
        int rateLimit,
        int queue,
        int keyQueue,
        Duration stallAfter,
        ErrorPolicy policy) {

    /** The settings of the asynchronous operator {@code op} under {@code pipeline}. */
    static StageSettings of(OperatorSpec op, PipelineSection pipeline) {
        StageConfig c = op.stageUnder(pipeline);
        int concurrency = c.concurrency() != null ? c.concurrency() : StageConfig.DEFAULT_CONCURRENCY;
        int queue = c.queue() != null ? c.queue() : concurrency * StageConfig.DEFAULT_QUEUE_PER_SLOT;
        int keyQueue = c.keyQueue() != null ? c.keyQueue() : Math.max(1, queue / StageConfig.DEFAULT_KEY_QUEUE_DIVISOR);
        ErrorPolicy policy = op.policyUnder(pipeline);
        return new StageSettings(
                concurrency,
                c.ordering() != null ? c.ordering() : StageConfig.DEFAULT_ORDERING,
                c.timeout() != null ? c.timeout() : StageConfig.DEFAULT_TIMEOUT,
                c.attempts() != null ? c.attempts() : pipeline.operatorAttempts(),
                c.backoff() != null ? c.backoff() : pipeline.operatorBackoff(),
                c.rateLimit() != null ? c.rateLimit() : 0,
                queue,
                keyQueue,
                c.stallAfter() != null ? c.stallAfter() : StageConfig.DEFAULT_STALL_AFTER,
                policy);
    }
}
