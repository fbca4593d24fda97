package io.etl.core.internal.chain;

import io.etl.core.error.DeadLetter;
import io.etl.core.error.ErrorPolicy;
import io.etl.core.error.RecordException;
import io.etl.core.error.RetryLetter;
import io.etl.core.internal.pool.Refusal;
import io.etl.core.metrics.EtlMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies record-level error policies: count and drop, dead-letter, or stop the pipeline. Chain stages call
 * it on the pipeline thread; sinks whose destination refused a message call it on their worker thread.
 */
public final class RecordErrors {

    private static final Logger LOG = LoggerFactory.getLogger(RecordErrors.class);
    private static final int LOUD_LOGS_PER_STAGE = 10;

    private final MeterRegistry registry;
    private final Tags tags;
    private final DeadLetters deadLetters;
    private final Retries retries;
    private final Consumer<Throwable> pipelineFailure;
    private final Map<String, Counter> dropped = new ConcurrentHashMap<>();
    private final Map<String, Counter> deadLettered = new ConcurrentHashMap<>();
    private final Map<String, Counter> retried = new ConcurrentHashMap<>();
    private final Map<String, Integer> logged = new ConcurrentHashMap<>();

    /**
     * @param deadLetters where {@code dead_letter} records go; null when no stage may use that policy
     */
    public RecordErrors(
            MeterRegistry registry, Tags tags, DeadLetters deadLetters, Consumer<Throwable> pipelineFailure) {
        this(registry, tags, deadLetters, null, pipelineFailure);
    }

    /**
     * @param deadLetters where {@code dead_letter} records go; null when no stage may use that policy
     * @param retries     where {@code retry} records go; null when no stage may use that policy
     */
    public RecordErrors(
            MeterRegistry registry,
            Tags tags,
            DeadLetters deadLetters,
            Retries retries,
            Consumer<Throwable> pipelineFailure) {
        this.registry = registry;
        this.tags = tags;
        this.deadLetters = deadLetters;
        this.retries = retries;
        this.pipelineFailure = pipelineFailure;
    }

    /** A stage of the chain rejected the current record. Pipeline thread. */
    void handle(
            String stage,
            String dlqStage,
            ErrorPolicy policy,
            Object value,
            RecordException error,
            int attempts,
            RecordContext ctx) {
        ctx.tracing.recordFailed(error);
        apply(stage, dlqStage, policy, value, error, attempts, ctx);
    }

    private void apply(
            String stage,
            String dlqStage,
            ErrorPolicy policy,
            Object value,
            RecordException error,
            int attempts,
            RecordContext ctx) {
        switch (policy) {
            case SKIP -> skipped(stage, error);
            case DEAD_LETTER -> {
                counted(stage, error);
                deadLetters().send(dlqStage, ctx.meta(), value, error, attempts, ctx.owner());
            }
            case RETRY -> retry(stage, dlqStage, value, error, attempts, ctx);
            case FAIL -> {
                LOG.error("stopping the pipeline: {}", error.getMessage());
                ctx.end();
                throw new PipelineStop(error);
            }
        }
    }

    /**
     * Sends the record to its next retry topic; once it has been through every level, or when the retry topic cannot
     * take it, the {@code retry} section's {@code then} policy applies instead.
     */
    private void retry(
            String stage, String dlqStage, Object value, RecordException error, int attempts, RecordContext ctx) {
        if (retries == null) {
            throw new IllegalStateException("a stage uses retry but the pipeline has no retry section");
        }
        RetryLetter letter = retries.next(dlqStage, ctx.meta(), error, System.currentTimeMillis());
        if (letter == null) {
            apply(stage, dlqStage, retries.then(), value, error, attempts, ctx);
            return;
        }
        try {
            retries.send(letter, ctx.owner());
        } catch (RecordException e) {
            LOG.warn(
                    "{}: the retry topic {} cannot take {} ({}); retry.then applies",
                    stage,
                    letter.topic(),
                    ctx.meta().position(),
                    e.getMessage());
            apply(stage, dlqStage, retries.then(), value, error, attempts, ctx);
            return;
        }
        counter(retried, EtlMetrics.RECORDS_RETRIED, stage, error.reason()).increment();
        log(stage, "to " + letter.topic() + " (attempt " + letter.attempt() + ")", error);
    }

    /**
     * A sink's destination refused one message; the refusal's owner holds that message's hold, released (or
     * failed) here once the refusal's policy is carried out. Any thread.
     */
    public void refused(Refusal r) {
        switch (r.policy()) {
            case SKIP -> {
                skipped(r.sink(), r.error());
                r.owner().release();
            }
            case DEAD_LETTER -> {
                counted(r.sink(), r.error());
                deadLetters()
                        .handOver(DeadLetter.produceStage(r.sink()), r.source(), r.error(), r.attempts(), r.owner());
            }
            case FAIL, RETRY -> {
                // a sink's policy is never retry: the pipeline refuses it before it starts
                LOG.error("stopping the pipeline: {}", r.error().getMessage());
                r.owner().fail(r.error());
                pipelineFailure.accept(r.error());
            }
        }
    }

    private DeadLetters deadLetters() {
        if (deadLetters == null) {
            throw new IllegalStateException("a stage uses dead_letter but the pipeline has no dead-letter destination");
        }
        return deadLetters;
    }

    private void skipped(String stage, RecordException error) {
        counter(dropped, EtlMetrics.RECORDS_DROPPED, stage, error.reason()).increment();
        log(stage, "skipped", error);
    }

    private void counted(String stage, RecordException error) {
        counter(deadLettered, EtlMetrics.RECORDS_DEAD_LETTERED, stage, error.reason())
                .increment();
        log(stage, "dead-lettered", error);
    }

    /** Whether so many dead letters are unconfirmed that no new record should enter the chain. */
    public boolean deadLettersFull() {
        return deadLetters != null && deadLetters.full();
    }

    private Counter counter(Map<String, Counter> cache, String name, String stage, String reason) {
        return cache.computeIfAbsent(
                stage + '\u0000' + reason,
                k -> registry.counter(name, tags.and(EtlMetrics.TAG_STAGE, stage, EtlMetrics.TAG_REASON, reason)));
    }

    private void log(String stage, String what, RecordException error) {
        int n = logged.merge(stage, 1, Integer::sum);
        if (n <= LOUD_LOGS_PER_STAGE) {
            LOG.warn(
                    "{} ({}): {}",
                    what,
                    n == LOUD_LOGS_PER_STAGE ? "further ones at DEBUG" : "policy",
                    error.getMessage());
        } else if (LOG.isDebugEnabled()) {
            LOG.debug("{}: {}", what, error.getMessage());
        }
    }
}
