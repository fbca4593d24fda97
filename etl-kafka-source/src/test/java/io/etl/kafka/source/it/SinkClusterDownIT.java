package io.etl.kafka.source.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etl.core.PipelineResult;
import io.etl.core.RunningPipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.core.config.SinkPoolConfig;
import io.etl.core.metrics.EtlMetrics;
import io.etl.kafka.source.KafkaSourceMetrics;
import io.etl.testkit.EmbeddedKafka;
import io.etl.testkit.ForkedKafkaCluster;
import io.etl.testkit.KafkaTestCluster;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Acceptance 3: the sink's cluster (a forked broker) stops for longer than {@code delivery_timeout} while
 * input keeps arriving on the source's cluster. The source pauses and keeps polling, so its group never
 * rebalances (even with {@code max.poll.interval.ms} far below the outage); pending records stay within
 * what the pool configuration allows; after the broker returns every record arrives.
 */
@EmbeddedKafka(shared = true)
class SinkClusterDownIT {

    /** Sixteen seconds of input: it arrives before, during and after the outage. */
    private static final int ORDERS = 32_000;

    private static final int PARTITIONS = 3;
    private static final int INFLIGHT = 2;
    private static final int QUEUE = 2;
    private static final int MAX_RECORDS = 500;
    /** Past delivery_timeout (5s) and twice max.poll.interval.ms (4s): writes time out, a poll gap would show. */
    private static final Duration OUTAGE = Duration.ofSeconds(8);

    @Test
    @Timeout(180)
    void pausesWithoutRebalancingAndDeliversEverythingOnceTheSinkClusterReturns(KafkaTestCluster kafka)
            throws Exception {
        RunTopics t = RunTopics.named("sinkdown");
        kafka.createTopic(t.input(), PARTITIONS);
        try (ForkedKafkaCluster sinkCluster = KafkaTestCluster.forkedSingle()) {
            sinkCluster.createTopic(t.output(), PARTITIONS);
            PipelineConfig config = t.yaml(kafka)
                    .sinkBrokers(sinkCluster.bootstrapServers())
                    .eachSink("delivery_timeout", "5s")
                    .consumer("max.poll.interval.ms", "4000")
                    .pool(INFLIGHT, QUEUE, MAX_RECORDS, "5ms")
                    .checkpoint("200ms", "20s")
                    .parse();
            SinkPoolConfig pool = config.sink("out").pool();
            long pendingBound = (long) pool.shards()
                    * (pool.queue() + pool.inflight() + 2)
                    * pool.batch().maxRecords();
            SimpleMeterRegistry registry = new SimpleMeterRegistry();

            RunningPipeline running;
            double maxPaused = 0;
            double maxPending = 0;
            long heapBefore;
            long heapMax = 0;
            try (LoadProducer load = LoadProducer.start(kafka, t.input(), PARTITIONS, ORDERS, 2_000)) {
                running = Pipelines.copy(config).start(config, registry);
                await().atMost(Duration.ofSeconds(60))
                        .pollInterval(Duration.ofMillis(100))
                        .until(() -> kafka.committedTotal(t.group()) >= 3_000
                                || running.result().isDone());
                assertThat(running.result()).isNotDone();
                heapBefore = usedHeap();

                sinkCluster.stop(ForkedKafkaCluster.SINGLE_NODE_ID);
                long stoppedAt = System.nanoTime();
                long[] sampled = {0};
                double[] paused = {0};
                double[] pending = {0};
                long[] heap = {0};
                await().atMost(OUTAGE.plusSeconds(3))
                        .pollInterval(Duration.ofMillis(100))
                        .until(() -> {
                            paused[0] = Math.max(paused[0], gauge(registry, EtlMetrics.SOURCE_PAUSED));
                            pending[0] = Math.max(pending[0], gauge(registry, EtlMetrics.CHECKPOINT_PENDING_RECORDS));
                            heap[0] = Math.max(heap[0], usedHeap());
                            sampled[0]++;
                            return System.nanoTime() - stoppedAt >= OUTAGE.toNanos();
                        });
                maxPaused = paused[0];
                maxPending = pending[0];
                heapMax = heap[0];
                System.out.printf(
                        "sink cluster down %d s: %d samples, produced %d, max pending %.0f (bound %d),"
                                + " paused %.0f, heap %d -> max %d MiB%n",
                        OUTAGE.toSeconds(),
                        sampled[0],
                        load.sent(),
                        maxPending,
                        pendingBound,
                        maxPaused,
                        heapBefore >> 20,
                        heapMax >> 20);
                assertThat(running.result())
                        .as("pipeline still running during the outage")
                        .isNotDone();
                assertThat(load.sent()).as("input kept arriving").isGreaterThan(10_000);

                sinkCluster.restart(ForkedKafkaCluster.SINGLE_NODE_ID);
                await().atMost(Duration.ofSeconds(90))
                        .pollInterval(Duration.ofMillis(250))
                        .until(() -> (load.done() && Delivery.caughtUp(kafka, t.group(), t.input()))
                                || running.result().isDone());
            }
            assertThat(running.result()).as("pipeline did not fail").isNotDone();
            assertNoRebalance(kafka, registry, t.group());
            PipelineResult result = running.stopAndWait(Duration.ofSeconds(40));

            assertThat(result.status()).as("result %s", result).isEqualTo(PipelineResult.Status.COMPLETED);
            assertThat(maxPaused).as("etl_source_paused during the outage").isEqualTo(1.0);
            assertThat(maxPending)
                    .as("pending records stay within the pool bound")
                    .isLessThanOrEqualTo(pendingBound);
            Map<String, Integer> out = Delivery.idCounts(sinkCluster, t.output());
            for (int i = 0; i < ORDERS; i++) {
                assertThat(out).containsKey(Orders.id(i));
            }
            System.out.printf("sink cluster down: %d duplicates%n", Delivery.duplicates(out));
        }
    }

    private static void assertNoRebalance(KafkaTestCluster kafka, SimpleMeterRegistry registry, String group)
            throws Exception {
        assertThat(registry.get(KafkaSourceMetrics.REBALANCES)
                        .tag(KafkaSourceMetrics.TAG_EVENT, "assigned")
                        .counter()
                        .count())
                .as("assignments: only the initial one")
                .isEqualTo(1.0);
        assertThat(registry.get(KafkaSourceMetrics.REBALANCES)
                        .tag(KafkaSourceMetrics.TAG_EVENT, "revoked")
                        .counter()
                        .count())
                .isZero();
        assertThat(registry.get(KafkaSourceMetrics.REBALANCES)
                        .tag(KafkaSourceMetrics.TAG_EVENT, "lost")
                        .counter()
                        .count())
                .isZero();
        try (Admin admin = kafka.newAdmin()) {
            ConsumerGroupDescription d = admin.describeConsumerGroups(Set.of(group))
                    .all()
                    .get(10, TimeUnit.SECONDS)
                    .get(group);
            assertThat(d.members()).hasSize(1);
            assertThat(d.members().iterator().next().assignment().topicPartitions())
                    .hasSize(PARTITIONS);
        }
    }

    private static double gauge(SimpleMeterRegistry registry, String name) {
        return registry.get(name).gauge().value();
    }

    private static long usedHeap() {
        Runtime rt = Runtime.getRuntime();
        return rt.totalMemory() - rt.freeMemory();
    }
}
