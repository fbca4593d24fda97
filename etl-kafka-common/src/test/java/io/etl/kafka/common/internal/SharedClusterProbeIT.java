package io.etl.kafka.common.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.etl.core.error.ConfigException;
import io.etl.testkit.EmbeddedKafka;
import io.etl.testkit.KafkaTestCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** One start-up check per cluster and run: shared while in flight, reused after, separate per cluster and run. */
@EmbeddedKafka(shared = true)
class SharedClusterProbeIT {

    private static Properties adminProperties(String bootstrap) {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("default.api.timeout.ms", 5000);
        p.put("request.timeout.ms", 5000);
        return p;
    }

    /** What {@code check} fails with; {@code null} when it passes. */
    private static ConfigException failureOf(ConnectivityCheck check) {
        return catchThrowableOfType(ConfigException.class, check::run);
    }

    @Test
    void concurrentCallersOfOneRunShareOneProbeAndLaterOnesReuseIt(KafkaTestCluster kafka) throws Exception {
        String run = UUID.randomUUID().toString();
        int callers = 6;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(callers);
        try {
            List<CompletableFuture<SharedClusterProbe>> leases = new ArrayList<>();
            for (int i = 0; i < callers; i++) {
                Properties props = adminProperties(kafka.bootstrapServers());
                props.put("client.id", "caller-" + i); // not part of the cluster's identity
                leases.add(CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                start.await();
                            } catch (InterruptedException e) {
                                throw new IllegalStateException(e);
                            }
                            return SharedClusterProbe.lease(run, props);
                        },
                        pool));
            }
            start.countDown();
            List<SharedClusterProbe> probes = new ArrayList<>();
            for (CompletableFuture<SharedClusterProbe> lease : leases) {
                probes.add(lease.get(10, TimeUnit.SECONDS));
            }
            assertThat(probes).allSatisfy(p -> assertThat(p).isSameAs(probes.get(0)));
            assertThat(probes.get(0).nodes(Duration.ofSeconds(10))).isNotEmpty();
            probes.forEach(SharedClusterProbe::release);

            SharedClusterProbe later = SharedClusterProbe.lease(run, adminProperties(kafka.bootstrapServers()));
            SharedClusterProbe otherRun =
                    SharedClusterProbe.lease(UUID.randomUUID().toString(), adminProperties(kafka.bootstrapServers()));
            try {
                assertThat(later)
                        .as("reused within the run while its client is open")
                        .isSameAs(probes.get(0));
                assertThat(otherRun).as("never shared across runs").isNotSameAs(later);
            } finally {
                later.release();
                otherRun.release();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aClosingConnectorClosesItsRunsIdleProbesAtOnceAndLeavesOtherRunsAlone(KafkaTestCluster kafka)
            throws Exception {
        String run = UUID.randomUUID().toString();
        String other = UUID.randomUUID().toString();
        SharedClusterProbe idle = SharedClusterProbe.lease(run, adminProperties(kafka.bootstrapServers()));
        SharedClusterProbe held = SharedClusterProbe.lease(other, adminProperties(kafka.bootstrapServers()));
        SharedClusterProbe otherIdle = SharedClusterProbe.lease(other, adminProperties(kafka.bootstrapServers()));
        idle.nodes(Duration.ofSeconds(30));
        idle.release();
        otherIdle.release(); // `held` still holds the other run's probe

        SharedClusterProbe.closeIdle(run);
        SharedClusterProbe.closeIdle(other);

        SharedClusterProbe again = SharedClusterProbe.lease(run, adminProperties(kafka.bootstrapServers()));
        SharedClusterProbe otherAgain = SharedClusterProbe.lease(other, adminProperties(kafka.bootstrapServers()));
        try {
            assertThat(again).as("a new probe: the idle one was closed").isNotSameAs(idle);
            assertThat(otherAgain).as("still open: a lease held it").isSameAs(held);
        } finally {
            again.release();
            otherAgain.release();
            held.release();
        }
    }

    @Test
    void sharedChecksOfTheSameRunPassAndStillNameAMissingTopic(KafkaTestCluster kafka) {
        String run = UUID.randomUUID().toString();
        String topic = "shared-" + UUID.randomUUID();
        kafka.createTopic(topic, 1);
        Map<String, Object> props = Map.of("bootstrap.servers", kafka.bootstrapServers());

        ConnectivityCheck.of(props, "source.orders.kafka").sharedWithin(run).run();
        ConnectivityCheck.of(props, "sinks.eu.kafka")
                .sharedWithin(run)
                .topic(topic)
                .run();
        ConfigException missing = failureOf(
                ConnectivityCheck.of(props, "sinks.us.kafka").sharedWithin(run).topic("no-such-topic"));

        assertThat(missing.problems()).singleElement().satisfies(p -> {
            assertThat(p.path()).isEqualTo("sinks.us.kafka.topic");
            assertThat(p.message())
                    .startsWith("topic 'no-such-topic' does not exist on brokers " + kafka.bootstrapServers());
        });
    }

    @Test
    void aSharedFailureReadsAsAnUnsharedOneForEachCaller() {
        Map<String, Object> dead = Map.of("bootstrap.servers", "127.0.0.1:1");
        Duration timeout = Duration.ofSeconds(2);
        String run = UUID.randomUUID().toString();

        ConfigException alone =
                failureOf(ConnectivityCheck.of(dead, "sinks.eu.kafka").timeout(timeout));
        ConfigException shared = failureOf(
                ConnectivityCheck.of(dead, "sinks.eu.kafka").timeout(timeout).sharedWithin(run));
        ConfigException next = failureOf(
                ConnectivityCheck.of(dead, "sinks.us.kafka").timeout(timeout).sharedWithin(run));

        assertThat(shared.problems()).isEqualTo(alone.problems());
        assertThat(next.problems()).singleElement().satisfies(p -> {
            assertThat(p.path()).isEqualTo("sinks.us.kafka.brokers");
            assertThat(p.message())
                    .startsWith("could not reach brokers 127.0.0.1:1: every address refused TCP connections for 2s");
        });
    }

    @Test
    void differentClustersAreCheckedInParallel() throws Exception {
        String run = UUID.randomUUID().toString();
        Duration timeout = Duration.ofSeconds(3);
        long started = System.nanoTime();
        List<CompletableFuture<ConfigException>> checks = new ArrayList<>();
        for (String brokers : List.of("127.0.0.1:1", "127.0.0.1:2")) {
            checks.add(CompletableFuture.supplyAsync(() -> failureOf(ConnectivityCheck.of(
                            Map.of("bootstrap.servers", brokers), "sinks." + brokers.substring(10) + ".kafka")
                    .timeout(timeout)
                    .sharedWithin(run))));
        }
        for (CompletableFuture<ConfigException> check : checks) {
            assertThat(check.get(20, TimeUnit.SECONDS).getMessage()).contains("could not reach brokers");
        }
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(timeout.multipliedBy(2));
    }
}
