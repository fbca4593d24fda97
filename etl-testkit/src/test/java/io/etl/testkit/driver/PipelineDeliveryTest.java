package io.etl.testkit.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etl.core.Pipeline;
import io.etl.core.config.BatchConfig;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class PipelineDeliveryTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Test
    void deliversEveryRecordThroughTheChainAndCommitsBehindIt() {
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<Integer> in = driver.source("numbers", 3);
            TestSink<String> out = driver.sink("out");
            driver.start(Pipeline.named("chain")
                    .from(in)
                    .filter("even", n -> n % 2 == 0)
                    .map("square", n -> n * n)
                    .flatMap("twice", n -> List.of("a" + n, "b" + n))
                    .to(out));
            for (int i = 0; i < 1000; i++) {
                in.send("k" + i, i);
            }
            driver.awaitCommitted(WAIT);

            List<String> expected = IntStream.range(0, 1000)
                    .filter(i -> i % 2 == 0)
                    .boxed()
                    .flatMap(i -> List.of("a" + i * i, "b" + i * i).stream())
                    .toList();
            assertThat(out.values()).containsExactlyInAnyOrderElementsOf(expected);
            assertThat(driver.committedOffsets()).isEqualTo(in.endOffsets());
        }
    }

    @Test
    void keysAndHeadersSurviveTheChain() {
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<String> in = driver.source("in", 1);
            TestSink<String> out = driver.sink("out");
            driver.start(
                    Pipeline.named("keys").from(in).map(String::toUpperCase).to(out));
            in.send("the-key", "value");
            driver.awaitCommitted(WAIT);

            TestSink.Received<String> got = out.received().get(0);
            assertThat(got.value()).isEqualTo("VALUE");
            assertThat(new String(got.meta().key(), StandardCharsets.UTF_8)).isEqualTo("the-key");
            assertThat(got.meta().offset()).isZero();
        }
    }

    @Test
    void recordSplitToTwoSinksIsCommittedOnlyAfterBothAcknowledge() {
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<String> in = driver.source("in", 1);
            TestSink<String> fast = driver.sink("fast");
            TestSink<String> slow = driver.<String>sink("slow").holdAcks();
            Routes<String> toBoth = s -> s.toAllMatching()
                    .branch("to-fast", v -> true, fast)
                    .branch("to-slow", v -> true, slow)
                    .dropUnmatched();
            driver.start(Pipeline.named("fan-out").from(in).split("both", toBoth));
            in.send("k", "x");
            await().atMost(WAIT).until(() -> fast.values().size() == 1 && slow.heldWrites() == 1);
            // the fast sink acknowledged; several commit intervals pass without committing past the record
            await().during(Duration.ofMillis(200)).atMost(WAIT).until(() -> in.committed(0) <= 0L);

            slow.releaseAcks();
            await().atMost(WAIT).until(() -> in.committed(0) == 1L);
            assertThat(slow.values()).containsExactly("x");
        }
    }

    @Test
    void splitSendsAValueToTheFirstMatchingBranchAndTheRestToOtherwise() {
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<String> in = driver.source("regions", 2);
            TestSink<String> eu = driver.sink("eu");
            TestSink<String> us = driver.sink("us");
            TestSink<String> rest = driver.sink("rest");
            Routes<String> byRegion = s -> s.branch("eu", v -> v.startsWith("eu"), eu)
                    .branch("us", v -> v.startsWith("us"), us)
                    .branch("eu-again", v -> v.startsWith("eu"), us)
                    .otherwise(rest);
            driver.start(Pipeline.named("split").from(in).split("by-region", byRegion));
            List.of("eu-1", "us-1", "eu-2", "mars-1").forEach(v -> in.send(v, v));
            driver.awaitCommitted(WAIT);

            assertThat(eu.values()).containsExactlyInAnyOrder("eu-1", "eu-2");
            assertThat(us.values()).containsExactly("us-1");
            assertThat(rest.values()).containsExactly("mars-1");
        }
    }

    @Test
    void perKeyOrderHoldsAcrossShards() {
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<String> in = driver.source("in", 4);
            TestSink<String> out = driver.sink(
                    "out", PipelineTestDriver.DEFAULT_POOL.withShards(4).withInflight(3));
            driver.start(Pipeline.named("order").from(in).to(out));
            for (int i = 0; i < 2000; i++) {
                String key = "key-" + (i % 7);
                in.send(key, key + ":" + i);
            }
            driver.awaitCommitted(WAIT);

            assertPerKeyOrder(out.values());
            assertThat(out.values()).hasSize(2000);
        }
    }

    @Test
    void messagesHandedOverBeforeTheirBatchIsSealedAreWrittenOnceInOrder() {
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<String> in = driver.source("in", 1);
            TestSink<String> out = driver.<String>sink(
                            "out",
                            PipelineTestDriver.DEFAULT_POOL.withInflight(2).withBatch(new BatchConfig(100, null, null)))
                    .sendsWithoutBlocking(true);
            driver.start(Pipeline.named("as-they-come").from(in).to(out));
            List<String> sent = IntStream.range(0, 3000).mapToObj(i -> "v" + i).toList();
            sent.forEach(v -> in.send("k", v));
            driver.awaitCommitted(WAIT);

            assertThat(out.values()).containsExactlyElementsOf(sent);
            assertThat(out.handedOverEarly())
                    .as("the writer took messages before their batch was sealed")
                    .isPositive();
        }
    }

    static void assertPerKeyOrder(List<String> values) {
        Map<String, Integer> last = new HashMap<>();
        for (String v : values) {
            String[] parts = v.split(":");
            int seq = Integer.parseInt(parts[1]);
            Integer previous = last.put(parts[0], seq);
            assertThat(previous == null || previous < seq)
                    .as("order of %s after %s", v, previous)
                    .isTrue();
        }
    }
}
