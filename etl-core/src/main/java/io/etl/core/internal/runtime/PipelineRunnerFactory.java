package io.etl.core.internal.runtime;

import io.etl.core.checkpoint.RunContext;
import io.etl.core.checkpoint.TransactionalCheckpoint;
import io.etl.core.config.CheckpointConfig;
import io.etl.core.config.PipelineConfig;
import io.etl.core.config.RetrySection;
import io.etl.core.config.RetryTopicsConfig;
import io.etl.core.error.ConfigException;
import io.etl.core.error.DeadLetter;
import io.etl.core.error.RetryLetter;
import io.etl.core.internal.chain.AsyncStages;
import io.etl.core.internal.chain.ChainCompiler;
import io.etl.core.internal.chain.DeadLetters;
import io.etl.core.internal.chain.Node;
import io.etl.core.internal.chain.RecordContext;
import io.etl.core.internal.chain.RecordErrors;
import io.etl.core.internal.chain.Retries;
import io.etl.core.internal.checkpoint.Checkpointer;
import io.etl.core.internal.config.DeadLetterSinks;
import io.etl.core.internal.config.RetrySinks;
import io.etl.core.internal.dsl.PipelineDefinition;
import io.etl.core.internal.pool.PoolEvents;
import io.etl.core.internal.pool.RefusedOutputs;
import io.etl.core.internal.pool.SinkPool;
import io.etl.core.internal.trace.RecordTracing;
import io.etl.core.metrics.EtlMetrics;
import io.etl.core.sink.Sink;
import io.etl.core.source.Source;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds a {@link PipelineRunner} for one run of a definition: the sink pools and the dead letters, the
 * compiled chain, the meters, and the runner's parts, each given only what it uses. Nothing is opened here.
 */
final class PipelineRunnerFactory {

    private static final Logger LOG = LoggerFactory.getLogger(PipelineRunnerFactory.class);

    private final PipelineDefinition definition;
    private final PipelineConfig config;
    private final MeterRegistry registry;
    private final EngineTime time;
    private final String name;
    private final Tags tags;
    private final PipelineSignals signals;
    private final Source<Object> source;
    private final RunContext run;
    /** In exactly-once mode, the outputs refused in aborted transactions; null otherwise. */
    private final RefusedOutputs refused;
    /** Every sink pool, the dead-letter pool last. */
    private final List<SinkPool<Object, ?>> pools = new ArrayList<>();

    private final Map<Sink<Object, ?>, SinkPool<Object, ?>> bySink = new IdentityHashMap<>();

    private PipelineRunnerFactory(
            PipelineDefinition definition,
            PipelineConfig config,
            MeterRegistry registry,
            EngineTime time,
            RunContext run,
            Source<Object> source,
            int loop) {
        this.definition = definition;
        this.config = config;
        this.registry = registry;
        this.time = time;
        this.name = config.pipeline().name() != null ? config.pipeline().name() : definition.name();
        Tags common = Tags.of(EtlMetrics.TAG_PIPELINE, name);
        for (Map.Entry<String, String> t : config.metrics().commonTags().entrySet()) {
            common = common.and(t.getKey(), t.getValue());
        }
        // one of several loops: each of its meters says which, so that the loops' gauges do not hide each other
        this.tags = loop > 0 ? common.and(EtlMetrics.TAG_THREAD, Integer.toString(loop)) : common;
        this.signals = new PipelineSignals(name);
        this.source = source;
        this.run = run;
        this.refused = run.exactlyOnce() ? new RefusedOutputs(config.pipeline().refusedMessageAttempts()) : null;
    }

    /**
     * The runner of {@code definition} under {@code config}, its meters in {@code registry}, its timers on
     * {@code time}; not started.
     */
    @SuppressWarnings("unchecked")
    static PipelineRunner create(
            PipelineDefinition definition, PipelineConfig config, MeterRegistry registry, EngineTime time) {
        return create(definition, config, registry, time, runContext(config), (Source<Object>) definition.source(), 0);
    }

    /**
     * The runner of loop {@code loop} (from 1; 0 for a pipeline's only loop, whose meters carry no
     * {@code thread} tag) reading {@code source}, in {@code run}, which the loops of one process share: their
     * sinks then share producers as the sinks of one loop do.
     */
    static PipelineRunner create(
            PipelineDefinition definition,
            PipelineConfig config,
            MeterRegistry registry,
            EngineTime time,
            RunContext run,
            Source<Object> source,
            int loop) {
        return new PipelineRunnerFactory(definition, config, registry, time, run, source, loop).create();
    }

    /** A new run of {@code config}: its id, delivery guarantee and transaction settings. */
    static RunContext runContext(PipelineConfig config) {
        return RunContext.of(
                UUID.randomUUID().toString(),
                config.pipeline().delivery(),
                config.pipeline().transactionalId(),
                config.pipeline().transactionTimeout());
    }

    private PipelineRunner create() {
        CheckpointConfig checkpoint = config.checkpoint();
        outputPools();
        Retries retries = retries();
        PipelineSinks sinks = sinks();
        RecordErrors errors = new RecordErrors(registry, tags, sinks.deadLetters(), retries, signals::fail);
        signals.errors(errors);
        RecordContext ctx = new RecordContext(
                errors,
                config.pipeline(),
                RecordTracing.create(config.pipeline().tracing(), name, source.name()),
                refused);
        AsyncStages stages = new AsyncStages(name, config.pipeline(), signals::wake);
        Node head = ChainCompiler.compile(
                definition.operators(),
                definition.terminal(),
                bySink,
                config.pipeline().onError(),
                ctx,
                registry,
                tags,
                stages);
        Tags sourceTags = tags.and(EtlMetrics.TAG_SOURCE, source.name());
        PollBuffer buffer = new PollBuffer(
                registry.counter(EtlMetrics.SOURCE_RECORDS, sourceTags),
                registry.counter(EtlMetrics.SOURCE_RECORDS_UNPROCESSED, sourceTags));
        AtomicLong paused = new AtomicLong();
        Gauge.builder(EtlMetrics.SOURCE_PAUSED, paused, AtomicLong::get)
                .tags(sourceTags)
                .register(registry);

        Checkpointer checkpointer = new Checkpointer();
        TrackerLookup trackers = new TrackerLookup(checkpointer);
        CommitScheduler commits =
                new CommitScheduler(name, source, checkpointer, checkpoint.interval(), registry, tags);
        OwnedPartitions partitions = new OwnedPartitions(trackers, commits);
        AcknowledgementWait acknowledgements = new AcknowledgementWait(sinks, checkpointer, signals, stages);
        StallCheck stalls = new StallCheck(checkpointer, checkpoint.stalledFailAfter());
        Supplier<TransactionSteps> exactlyOnce = () -> run.exactlyOnce()
                ? new TransactionSteps(
                        name,
                        new TransactionRun(transactionalCheckpoint(sinks), refused, registry, tags),
                        acknowledgements,
                        commits,
                        new SourceRewind(name, buffer, partitions, source),
                        signals,
                        checkpoint.drainTimeout())
                : null;
        return new PipelineRunner(
                name,
                signals,
                source,
                new PipelineOpening(name, pools, source, run, registry, sourceTags),
                buffer,
                new RecordEntry(
                        trackers,
                        checkpointer,
                        ctx,
                        head,
                        errors,
                        source.name(),
                        source.errorPolicy(),
                        checkpoint.maxPendingRecords()),
                sinks,
                new SourcePause(source, paused),
                partitions,
                commits,
                new RebalanceHandler(name, buffer, partitions, acknowledgements, commits, stalls, signals),
                stalls,
                new ShutdownSequence(
                        name,
                        sinks,
                        stages,
                        commits,
                        source,
                        signals,
                        checkpoint.drainTimeout(),
                        config.pipeline().shutdownTimeout()),
                exactlyOnce,
                stages,
                registry,
                time);
    }

    /** One pool per sink of the definition. */
    private void outputPools() {
        // exactly once, an output's refusal aborts its transaction: it is remembered, and its policy applies later
        PoolEvents outputEvents = refused == null ? signals : refused.remembering(signals);
        for (Sink<Object, ?> sink : definition.sinks()) {
            SinkPool<Object, ?> pool = new SinkPool<>(sink, outputEvents, registry, tags, time::nanoTime);
            bySink.put(sink, pool);
            pools.add(pool);
        }
    }

    /**
     * When a stage uses policy {@code retry}, the pool of the sink that writes the retry topics, after the output
     * pools; the retry levels are registered with the run, where the source finds the retry topics it also reads.
     */
    private Retries retries() {
        if (config.retry().isEmpty()) {
            return null;
        }
        RetrySection section = config.retry().get();
        if (!definition.usesRetry(config)) {
            LOG.warn("pipeline '{}': the retry section is not used (no stage has policy retry)", name);
            return null;
        }
        SinkPool<RetryLetter, ?> pool =
                new SinkPool<>(RetrySinks.create(section.writer()), signals, registry, tags, time::nanoTime);
        addLast(pool);
        run.computeIfAbsent(RetryTopicsConfig.class, section::levels);
        return new Retries(name, section.levels(), pool);
    }

    /**
     * The pools made so far and, when a stage dead-letters to the {@code dead_letter} section, one
     * for that sink, last: it is drained after every pool that may still hand it dead letters.
     */
    private PipelineSinks sinks() {
        if (definition.deadLetter() != null) {
            return new PipelineSinks(
                    name,
                    pools,
                    null,
                    DeadLetters.toHandler(name, definition.deadLetter(), signals::fail, signals::wake));
        }
        if (config.deadLetter().isPresent() && definition.usesDeadLetter(config)) {
            SinkPool<DeadLetter, ?> pool = new SinkPool<>(
                    DeadLetterSinks.create(config.deadLetter().get()),
                    DeadLetterEvents.failFast(signals, signals::fail),
                    registry,
                    tags,
                    time::nanoTime);
            addLast(pool);
            return new PipelineSinks(name, pools, pool, DeadLetters.toPool(name, pool, signals::fail, signals::wake));
        }
        if (config.deadLetter().isPresent()) {
            LOG.warn("pipeline '{}': the dead_letter section is not used (no stage has policy dead_letter)", name);
        }
        return new PipelineSinks(name, pools, null, null);
    }

    @SuppressWarnings("unchecked")
    private void addLast(SinkPool<?, ?> pool) {
        pools.add((SinkPool<Object, ?>) pool);
    }

    /** The run's transactional checkpoint, which a sink that writes in transactions registered when it opened. */
    private TransactionalCheckpoint transactionalCheckpoint(PipelineSinks sinks) {
        return run.find(TransactionalCheckpoint.class)
                .orElseThrow(() -> ConfigException.of(
                        "pipeline.delivery",
                        "is exactly_once but no sink of this pipeline writes in transactions (sinks " + sinks.names()
                                + ")"));
    }
}
