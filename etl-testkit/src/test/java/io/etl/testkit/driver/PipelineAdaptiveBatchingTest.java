package io.etl.testkit.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etl.core.Pipeline;
import io.etl.core.config.BatchConfig;
import io.etl.core.config.SinkPoolConfig;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Adaptive batching: a shard seals its open batch at once when its write window has room, and lingers only
 * while the window is full of unacknowledged batches. The linger here is an hour, so any write the tests
 * see happened because of the adaptive rule, never because the linger expired.
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
    void recordsLingerWhileTheWindowIsFullAndAreSealedTogetherWhenItHasRoom() {
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<String> in = driver.source("in", 1);
            TestSink<String> out =
                    driver.<String>sink("out", HOUR_LINGER.withInflight(1)).holdAcks();
            driver.start(Pipeline.named("busy-shard").from(in).to(out));

            in.send("k", "a");
            await().atMost(WAIT).until(() -> out.heldWrites() == 1);
            for (String v : new String[] {"b", "c", "d"}) {
                in.send("k", v);
            }
            // while "a" fills the one-batch window the later records stay in the open batch: no second write
            await().during(Duration.ofMillis(300)).atMost(WAIT).until(() -> out.writeAttempts() == 1);

            out.releaseAcks();
            await().atMost(WAIT).until(() -> out.values().size() == 4);
            assertThat(out.values()).containsExactly("a", "b", "c", "d");
            assertThat(out.writeAttempts()).isEqualTo(2);
        }
    }

    @Test
    void aBatchIsWrittenAtOnceWhileAnEarlierOneIsUnacknowledgedWhenTheWindowHasRoom() {
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<String> in = driver.source("in", 1);
            TestSink<String> out =
                    driver.<String>sink("out", HOUR_LINGER.withInflight(2)).holdAcks();
            driver.start(Pipeline.named("two-slot-window").from(in).to(out));

            in.send("k", "a");
            await().atMost(WAIT).until(() -> out.heldWrites() == 1);
            in.send("k", "b");
            // "a" is unacknowledged, but the window has a second slot: "b" goes out without lingering
            await().atMost(WAIT).until(() -> out.heldWrites() == 2);
            in.send("k", "c");
            in.send("k", "d");
            // now both slots are taken: "c" and "d" wait in the open batch
            await().during(Duration.ofMillis(300)).atMost(WAIT).until(() -> out.writeAttempts() == 2);

            out.releaseAcks();
            await().atMost(WAIT).until(() -> out.values().size() == 4);
            // the test sink records a value when its write is acknowledged: held writes complete together
            assertThat(out.values()).containsExactlyInAnyOrder("a", "b", "c", "d");
            assertThat(out.writeAttempts()).isEqualTo(3);
        }
    }
}
