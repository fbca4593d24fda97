package io.etl.kafka.sink;

import static org.awaitility.Awaitility.await;

import io.etl.core.Pipeline;
import io.etl.core.PipelineResult;
import io.etl.core.RunningPipeline;
import io.etl.core.config.CheckpointConfig;
import io.etl.core.config.PipelineConfig;
import io.etl.core.sink.Sink;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/** Helpers shared by the sink ITs. */
final class SinkIts {

    private static final AtomicInteger COUNTER = new AtomicInteger();

    /** Fast commits, a short stall limit, a bounded drain. */
    static final PipelineConfig CONFIG = PipelineConfig.custom()
            .checkpoint(CheckpointConfig.custom()
                    .interval(Duration.ofMillis(100))
                    .drainTimeout(Duration.ofSeconds(5))
                    .stalledFailAfter(Duration.ofSeconds(2))
                    .build())
            .build();

    private SinkIts() {}

    static String unique(String prefix) {
        return prefix + "-" + COUNTER.incrementAndGet() + "-" + Long.toHexString(System.nanoTime() & 0xffffff);
    }

    static <T> RunningPipeline start(ListSource<T> source, Sink<? super T, ?> sink, MeterRegistry registry) {
        return Pipeline.named(unique("p")).from(source).to(sink).start(CONFIG, registry);
    }

    /** Runs until every record is committed, then stops; returns the result. */
    static <T> PipelineResult runToEnd(ListSource<T> source, Sink<? super T, ?> sink) {
        return runToEnd(source, sink, new SimpleMeterRegistry());
    }

    static <T> PipelineResult runToEnd(ListSource<T> source, Sink<? super T, ?> sink, MeterRegistry registry) {
        RunningPipeline running = start(source, sink, registry);
        await().atMost(Duration.ofSeconds(60))
                .until(() -> running.result().isDone()
                        || running.committedOffsets().getOrDefault(source.partition(), -1L) == source.size());
        return running.stopAndWait(Duration.ofSeconds(30));
    }
}
