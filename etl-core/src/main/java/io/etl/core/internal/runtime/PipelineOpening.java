package io.etl.core.internal.runtime;

import io.etl.core.checkpoint.RunContext;
import io.etl.core.error.ConfigException;
import io.etl.core.error.ConfigProblem;
import io.etl.core.internal.pool.SinkPool;
import io.etl.core.source.PartitionListener;
import io.etl.core.source.Source;
import io.etl.core.source.SourceContext;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.List;

/**
 * Opens a run's sinks in the background and its source meanwhile on the pipeline thread: their connectivity
 * checks, client start-up and class loading overlap; a stop requested meanwhile interrupts both
 * ({@link OpeningInterrupt}). It waits for every sink; a sink's failure is reported first (as if the sinks had
 * opened before the source), a source's failure then. When every failure is a configuration problem (a missing
 * topic, a denied group), one {@link ConfigException} lists them all, so that a start names each problem at once.
 */
final class PipelineOpening {

    private final String pipeline;
    private final List<SinkPool<Object, ?>> pools;
    private final Source<Object> source;
    private final RunContext run;
    private final MeterRegistry registry;
    private final Tags sourceTags;
    private final OpeningInterrupt interrupt = new OpeningInterrupt();
    /** The source opened (pipeline thread); it is closed at the end even when a sink failed to open. */
    private boolean sourceOpened;

    /**
     * @param pipeline   the pipeline's name
     * @param pools      every sink pool, the dead-letter pool last
     * @param source     the source
     * @param run        the run, handed to the source and the sinks
     * @param registry   where the source and the sinks register their meters
     * @param sourceTags the source's meter tags
     */
    PipelineOpening(
            String pipeline,
            List<SinkPool<Object, ?>> pools,
            Source<Object> source,
            RunContext run,
            MeterRegistry registry,
            Tags sourceTags) {
        this.pipeline = pipeline;
        this.pools = pools;
        this.source = source;
        this.run = run;
        this.registry = registry;
        this.sourceTags = sourceTags;
    }

    /** Opens every sink and the source, which tells {@code partitions} of its partitions; throws what failed. */
    void open(PartitionListener partitions) {
        SinkOpening sinkOpening = SinkOpening.start(pools, pipeline, run, registry);
        Throwable sourceFailure = null;
        interrupt.begin(sinkOpening);
        try {
            try {
                source.open(new SourceContext(pipeline, partitions, registry, sourceTags, run.runId(), run));
                sourceOpened = true;
            } catch (RuntimeException | Error e) {
                sourceFailure = e;
            }
            try {
                sinkOpening.await();
            } catch (RuntimeException e) {
                if (sourceFailure != null) {
                    e.addSuppressed(sourceFailure);
                }
                throw configProblemsTogether(e);
            }
        } finally {
            interrupt.end();
        }
        if (sourceFailure instanceof Error error) {
            throw error;
        }
        if (sourceFailure != null) {
            throw (RuntimeException) sourceFailure;
        }
    }

    /** Whether the source opened: it is closed at the end even when a sink failed to open. */
    boolean sourceOpened() {
        return sourceOpened;
    }

    /** A stop was requested, from any thread: an opening in progress, or the next one, is cut short. */
    void stop() {
        interrupt.stop();
    }

    /**
     * {@code failure} and the failures it suppresses as one {@link ConfigException} with every problem, in
     * order, when each of them is one; otherwise {@code failure} as it is.
     */
    static RuntimeException configProblemsTogether(RuntimeException failure) {
        Throwable[] others = failure.getSuppressed();
        if (!(failure instanceof ConfigException first) || others.length == 0) {
            return failure;
        }
        List<ConfigProblem> problems = new ArrayList<>(first.problems());
        for (Throwable other : others) {
            if (!(other instanceof ConfigException config)) {
                return failure;
            }
            problems.addAll(config.problems());
        }
        return new ConfigException(problems, failure);
    }
}
