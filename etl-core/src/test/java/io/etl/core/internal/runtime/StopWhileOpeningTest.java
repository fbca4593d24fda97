package io.etl.core.internal.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.core.Pipeline;
import io.etl.core.PipelineResult;
import io.etl.core.RunningPipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.core.source.SourceContext;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class StopWhileOpeningTest {

    /** Far longer than the test waits for the result: only an interrupt ends these waits in time. */
    private static final long OPENING_WAIT_SECONDS = 120;

    @Test
    void aStopWhileTheSourceAndASinkWaitToOpenEndsTheStartAtOnceAsAStopNotAFailure() throws Exception {
        BlockingOpening sourceOpening = new BlockingOpening();
        BlockingOpening sinkOpening = new BlockingOpening();
        AtomicBoolean otherSinkOpened = new AtomicBoolean();
        FixtureSource source = new FixtureSource(List.of()) {
            @Override
            public void open(SourceContext ctx) {
                sourceOpening.block();
                super.open(ctx);
            }
        };
        FixtureSink<String, String> slow = new FixtureSink<>("slow", FixtureSink.passThrough(), context -> {
            sinkOpening.block();
            return batch -> CompletableFuture.completedFuture(null);
        });
        FixtureSink<String, String> quick = new FixtureSink<>("quick", FixtureSink.passThrough(), context -> {
            otherSinkOpened.set(true);
            return batch -> CompletableFuture.completedFuture(null);
        });

        RunningPipeline running = Pipeline.named("stopped-early")
                .from(source)
                .split(
                        "by-length",
                        split -> split.branch("slow", v -> v.length() > 3, slow).otherwise(quick))
                .start(PipelineConfig.defaults());
        assertThat(sourceOpening.started.await(10, TimeUnit.SECONDS))
                .as("source opening")
                .isTrue();
        assertThat(sinkOpening.started.await(10, TimeUnit.SECONDS))
                .as("sink opening")
                .isTrue();

        running.stop();
        PipelineResult result = running.result().get(10, TimeUnit.SECONDS);

        assertThat(result.status()).isEqualTo(PipelineResult.Status.COMPLETED);
        assertThat(result.failure()).isNull();
        assertThat(result.recordsIn()).isZero();
        assertThat(sourceOpening.interrupted)
                .as("the source's opening was interrupted")
                .isTrue();
        assertThat(sinkOpening.interrupted)
                .as("the sink's opening was interrupted")
                .isTrue();
        assertThat(otherSinkOpened).as("the sink that could open did").isTrue();
    }

    /** An opening that waits (far too long) until it is interrupted, then fails as a check would. */
    private static final class BlockingOpening {
        final CountDownLatch started = new CountDownLatch(1);
        volatile boolean interrupted;

        void block() {
            started.countDown();
            try {
                new CountDownLatch(1).await(OPENING_WAIT_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                interrupted = true;
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while checking brokers", e);
            }
            throw new IllegalStateException("brokers unreachable");
        }
    }
}
