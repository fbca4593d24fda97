package io.etl.core;

import io.etl.core.config.PipelineConfig;
import io.etl.core.internal.dsl.PipelineDraft;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * A complete pipeline definition: a source, an operator chain and a terminal. Built with the DSL,
 * checked by {@link #build()} before any I/O, then run.
 *
 * <pre>{@code
 * PipelineConfig config = PipelineConfig.load(Path.of("pipeline.yaml"));
 * Pipeline.named("orders-split")
 *     .from(KafkaSource.from(config.source("orders")).json(Order.class))
 *     .filter("drop-test", o -> !o.isTest())
 *     .to(KafkaSink.from(config.sink("out")).json())
 *     .run(config);            // blocks until it fails, or the calling thread is interrupted (then drains)
 * }</pre>
 *
 * <p>The library installs no signal handler: a SIGTERM ends the JVM without a drain unless something turns it into
 * {@link RunningPipeline#stop()}. The {@code etl-runtime} launcher's {@code run} command does (SIGTERM and SIGINT
 * drain, commit and exit 0); an application that embeds a pipeline calls {@code stop()} from its own shutdown.
 */
public interface Pipeline {

    /** Starts a definition. */
    static PipelineBuilder named(String name) {
        return PipelineDraft.start(name);
    }

    /** The pipeline's name. */
    String name();

    /**
     * Checks the definition: unique operator, branch and sink names, a sink on every branch. Whether every
     * stage with policy {@code dead_letter} has somewhere to send records (the configuration's
     * {@code dead_letter} section or a handler) is checked by {@code start}/{@code run}, before any I/O.
     *
     * @throws io.etl.core.error.ConfigException listing every problem
     */
    Pipeline build();

    /** Starts the pipeline on its own thread, recording metrics into {@code registry}. */
    RunningPipeline start(PipelineConfig config, MeterRegistry registry);

    /** Starts the pipeline with a private {@code SimpleMeterRegistry}. */
    RunningPipeline start(PipelineConfig config);

    /**
     * Starts the pipeline and blocks until it ends: after an error, or after the calling thread is
     * interrupted (which stops it with a drain, then returns with the interrupt flag set). It has no
     * JVM-wide side effects: no shutdown hook, no signal handler, no exit. To run a pipeline as a service
     * (signals, exit codes, health and metrics endpoints), use the {@code etl-runtime} launcher, or
     * {@link #start} and call {@link RunningPipeline#stop()} yourself.
     *
     * @return how the run ended
     */
    PipelineResult run(PipelineConfig config);

    /** {@link #run(PipelineConfig)} recording metrics into {@code registry}. */
    PipelineResult run(PipelineConfig config, MeterRegistry registry);
}
