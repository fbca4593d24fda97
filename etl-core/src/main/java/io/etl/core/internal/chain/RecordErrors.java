package io.etl.core.internal.chain;

import io.etl.core.error.DeadLetterHandler;
import io.etl.core.error.ErrorPolicy;
import io.etl.core.error.FatalException;
import io.etl.core.error.RecordException;
import io.etl.core.internal.checkpoint.PendingRecord;
import io.etl.core.metrics.EtlMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Applies record-level error policies: count and drop, dead-letter, or stop the pipeline. */
public final class RecordErrors {

    private static final Logger LOG = LoggerFactory.getLogger(RecordErrors.class);
    private static final int LOUD_LOGS_PER_STAGE = 10;

    private final MeterRegistry registry;
    private final Tags tags;
    private final DeadLetterHandler deadLetter;
    private final Consumer<Throwable> pipelineFailure;
    private final Map<String, Counter> dropped = new HashMap<>();
    private final Map<String, Counter> deadLettered = new HashMap<>();
    private final Map<String, Integer> logged = new HashMap<>();

    public RecordErrors(MeterRegistry registry, Tags tags, DeadLetterHandler deadLetter,
                        Consumer<Throwable> pipelineFailure) {
        this.registry = registry;
        this.tags = tags;
        this.deadLetter = deadLetter;
        this.pipelineFailure = pipelineFailure;
    }

    void handle(String stage, ErrorPolicy policy, Object value, RecordException error, RecordContext ctx) {
        ctx.tracing.recordFailed(error);
        switch (policy) {
            case SKIP -> {
                counter(dropped, EtlMetrics.RECORDS_DROPPED, stage, error.reason()).increment();
                log(stage, "skipped", error);
            }
            case DEAD_LETTER -> {
                counter(deadLettered, EtlMetrics.RECORDS_DEAD_LETTERED, stage, error.reason()).increment();
                log(stage, "dead-lettered", error);
                PendingRecord owner = ctx.owner();
                owner.retain();
                deadLetter.deadLetter(ctx.meta(), value, error).whenComplete((ok, err) -> {
                    if (err == null) {
                        owner.release();
                    } else {
                        FatalException fatal = new FatalException("dead letter for " + ctx.meta().position()
                                + " could not be stored: " + err.getMessage(), err);
                        owner.fail(fatal);
                        pipelineFailure.accept(fatal);
                    }
                });
            }
            case FAIL -> {
                LOG.error("stopping the pipeline: {}", error.getMessage());
                ctx.end();
                throw new PipelineStop(error);
            }
        }
    }

    private Counter counter(Map<String, Counter> cache, String name, String stage, String reason) {
        return cache.computeIfAbsent(stage + '\u0000' + reason, k -> registry.counter(name,
                tags.and(EtlMetrics.TAG_STAGE, stage, EtlMetrics.TAG_REASON, reason)));
    }

    private void log(String stage, String what, RecordException error) {
        int n = logged.merge(stage, 1, Integer::sum);
        if (n <= LOUD_LOGS_PER_STAGE) {
            LOG.warn("{} ({}): {}", what, n == LOUD_LOGS_PER_STAGE ? "further ones at DEBUG" : "policy", error.getMessage());
        } else if (LOG.isDebugEnabled()) {
            LOG.debug("{}: {}", what, error.getMessage());
        }
    }
}
