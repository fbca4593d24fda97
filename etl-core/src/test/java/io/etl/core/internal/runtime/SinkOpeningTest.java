package io.etl.core.internal.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.etl.core.checkpoint.RunContext;
import io.etl.core.error.ConfigException;
import io.etl.core.internal.pool.PoolEvents;
import io.etl.core.internal.pool.Refusal;
import io.etl.core.internal.pool.SinkPool;
import io.etl.core.sink.SealedBatch;
import io.etl.core.sink.Sink;
import io.etl.core.sink.SinkWriter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SinkOpeningTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final List<SinkPool<Object, ?>> pools = new ArrayList<>();
    private final Set<String> runIds = ConcurrentHashMap.newKeySet();
    private final Set<String> opened = ConcurrentHashMap.newKeySet();

    @AfterEach
    void closePools() {
        for (SinkPool<Object, ?> pool : pools) {
            pool.close();
            pool.abort(Duration.ofSeconds(1));
            pool.closeWriter(Duration.ofSeconds(1));
        }
    }

    @Test
    void opensTheSinksSideBySide() {
        // each writer opens only once every other one is opening too: one after another it would never finish
        CyclicBarrier allOpening = new CyclicBarrier(3);
        for (String name : List.of("eu", "us", "apac")) {
            add(name, () -> {
                await(allOpening);
                return new NoopWriter();
            });
        }

        SinkOpening.start(pools, "p", RunContext.atLeastOnce("run-1"), registry).await();

        assertThat(runIds).containsExactly("run-1");
    }

    @Test
    void reportsTheFirstFailingSinkInOrderAfterEveryOtherOpened() {
        CompletableFuture<Void> usFailed = new CompletableFuture<>();
        add("eu", () -> {
            // fails last, yet is reported: it comes first
            try {
                usFailed.get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new IllegalStateException("the sinks were not opened side by side", e);
            }
            throw ConfigException.of("sinks.eu.kafka.topic", "eu is broken");
        });
        add("us", () -> {
            usFailed.complete(null);
            throw ConfigException.of("sinks.us.kafka.topic", "us is broken");
        });
        add("apac", NoopWriter::new);

        Throwable failure =
                catchThrowable(() -> SinkOpening.start(pools, "p", RunContext.atLeastOnce("run-2"), registry)
                        .await());

        assertThat(failure).isInstanceOf(ConfigException.class).hasMessageContaining("eu is broken");
        assertThat(failure.getSuppressed())
                .singleElement()
                .satisfies(s -> assertThat(s).hasMessageContaining("us is broken"));
        assertThat(opened)
                .as("the healthy sink was opened, so the pipeline's shutdown closes it")
                .containsExactly("apac");
    }

    private void add(String name, Supplier<SinkWriter<Object>> open) {
        Sink<Object, Object> sink = new FixtureSink<>(name, FixtureSink.passThrough(), context -> {
            runIds.add(context.runId());
            SinkWriter<Object> writer = open.get();
            opened.add(name);
            return writer;
        });
        pools.add(new SinkPool<>(sink, new NoEvents(), registry, Tags.of("pipeline", "p")));
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException | BrokenBarrierException | TimeoutException e) {
            throw new IllegalStateException("the sinks were not opened side by side", e);
        }
    }

    private static final class NoopWriter implements SinkWriter<Object> {
        @Override
        public CompletableFuture<Void> writeBatch(SealedBatch<Object> batch) {
            return CompletableFuture.completedFuture(null);
        }
    }

    private static final class NoEvents implements PoolEvents {
        @Override
        public void acknowledged() {}

        @Override
        public void batchFailed(SealedBatch<?> batch, Throwable cause) {}

        @Override
        public void batchesAbandoned(String sink, int shard, int batches, long records) {}

        @Override
        public void refused(Refusal refusal) {}
    }
}
