package io.etl.testkit.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etl.core.Pipeline;
import io.etl.core.config.BatchConfig;
import io.etl.core.config.SinkPoolConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Adaptive batching: a shard seals its open batch at once when its write window has room, and lingers only
 * while the window is full of unacknowledged batches. The linger here is an hour, so any write the tests
 * see happened because of the adaptive rule, never because the linger expired. A writer that takes messages as
 * they come has them at once either way; its open attempt takes the window's last free place.
 */
class PipelineAdaptiveBatchingTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final SinkPoolConfig HOUR_LINGER =
            SinkPoolConfig.defaults().withBatch(new BatchConfig(1000, null, Duration.ofHours(1)));

    @Test
    void aRecordReachingAnIdleShardIsWrittenWithoutWaitingForTheLinger() {
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<String> in = driver.source("in", 1);
            TestSink<String> out = driver.sink("out", HOUR_LINGER);
            driver.start(Pipeline.named("idle-shard").from(in).to(out));

            in.send("k", "first");
            await().atMost(WAIT).until(() -> out.values().size() == 1);
            in.send("k", "second");
            await().atMost(WAIT).until(() -> out.values().size() == 2);

            assertThat(out.values()).containsExactly("first", "second");
            assertThat(out.writeAttempts()).isEqualTo(2);
            driver.awaitCommitted(WAIT);
            assertThat(driver.committedOffsets()).isEqualTo(in.endOffsets());
        }
    }

    @Test
    void recordsOfALargePollAreWrittenWhileTheRestOfThePollIsStillProcessed() {
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<String> in = driver.source("in", 1);
            TestSink<String> out = driver.sink("out", HOUR_LINGER);
            int records = 500; // the test source's most per poll: the pipeline gets them all at once
            for (int i = 0; i < records; i++) {
                in.send("k", "v" + i);
            }
            String last = "v" + (records - 1);
            AtomicBoolean writtenBeforeTheLast = new AtomicBoolean();
            driver.start(Pipeline.named("large-poll")
                    .from(in)
                    .map("hold-last", (String v) -> {
                        if (v.equals(last)) {
                            // the pipeline thread is inside the poll here: only a write made earlier can end this wait
                            writtenBeforeTheLast.set(DriverSteps.awaitQuietly(() -> out.writeAttempts() > 0, WAIT));
                        }
                        return v;
                    })
                    .to(out));

            await().atMost(WAIT).until(() -> out.values().size() == records);
            assertThat(writtenBeforeTheLast).isTrue();
            assertThat(out.writeAttempts()).isGreaterThan(1);
        }
    }

    @ParameterizedTest(name = "inflight {0}")
    @ValueSource(ints = {1, 2, 4})
    void batchesGoOutAtOnceWhileTheWindowHasRoomAndLingerTogetherOnceItIsFull(int inflight) {
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<String> in = driver.source("in", 1);
            TestSink<String> out = driver.<String>sink("out", HOUR_LINGER.withInflight(inflight))
                    .takesMessagesAsTheyCome(false)
                    .holdAcks();
            driver.start(Pipeline.named("window-" + inflight).from(in).to(out));

            List<String> sent = new ArrayList<>();
            for (int i = 1; i <= inflight; i++) {
                String value = "early-" + i;
                in.send("k", value);
                sent.add(value);
                // nothing is acknowledged, but the window has a free slot: each record goes out without lingering
                int written = i;
                await().atMost(WAIT).until(() -> out.heldWrites() == written);
            }
            for (String value : List.of("late-1", "late-2")) {
                in.send("k", value);
                sent.add(value);
            }
            // now every slot is taken: the late records wait together in the open batch
            await().during(Duration.ofMillis(300)).atMost(WAIT).until(() -> out.writeAttempts() == inflight);

            out.releaseAcks();
            await().atMost(WAIT).until(() -> out.values().size() == sent.size());
            // the test sink records a value when its write is acknowledged: held writes complete together
            assertThat(out.values()).containsExactlyInAnyOrderElementsOf(sent);
            assertThat(out.writeAttempts()).isEqualTo(inflight + 1);
        }
    }

    @Test
    void anOpenAttemptTakesRecordsAtOnceAndIsSealedWhenAnotherPlaceInTheWindowFrees() {
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<String> in = driver.source("in", 1);
            TestSink<String> out = driver.<String>sink("out", HOUR_LINGER.withInflight(2))
                    .sendsWithoutBlocking(true)
                    .takesMessagesAsTheyCome(true)
                    .holdAcks();
            driver.start(Pipeline.named("open-attempt").from(in).to(out));

            in.send("k", "a");
            // nothing else in flight: the batch is sealed at once
            await().atMost(WAIT).until(() -> out.heldWrites() == 1 && out.handedOverEarly() == 1);
            in.send("k", "b");
            in.send("k", "c");
            // the next batch's attempt takes the last place: its records are handed over at once, the batch stays open
            await().atMost(WAIT).until(() -> out.handedOverEarly() == 3);
            await().during(Duration.ofMillis(300)).atMost(WAIT).until(() -> out.writeAttempts() == 1);

            out.releaseAcks();
            await().atMost(WAIT).until(() -> out.values().size() == 3);
            assertThat(out.values()).containsExactly("a", "b", "c");
            assertThat(out.writeAttempts()).isEqualTo(2);
            driver.awaitCommitted(WAIT);
            assertThat(driver.committedOffsets()).isEqualTo(in.endOffsets());
        }
    }
}
