package io.etl.bench;

import io.etl.bench.impl.Contestant;
import io.etl.bench.impl.RaceTopics;
import io.etl.testkit.KafkaTestCluster;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeoutException;

/**
 * Runs the workload once through the race's broker before the first round, untimed and in the race's own JVM
 * (the hand-written loop on topics of its own), so that no contestant meets a broker that has just started. A
 * fresh broker JVM compiles its produce, fetch and offset-commit paths and sizes its heap during its first
 * seconds of traffic; without this, the first contestant of the first round pays for that alone.
 *
 * <pre>{@code
 * BrokerWarmUp.run(cluster, ForkedRaceOptions.DEFAULT_BROKER_WARM_UP);
 * }</pre>
 */
final class BrokerWarmUp {

    private static final Duration TIMEOUT = Duration.ofMinutes(5);

    private BrokerWarmUp() {}

    /**
     * Produces {@code records} orders, splits them with the loop and deletes the topics again; does nothing for
     * {@code records <= 0}.
     *
     * @return the outputs the loop wrote (0 when nothing ran)
     */
    static long run(KafkaTestCluster cluster, int records) throws InterruptedException {
        if (records <= 0) {
            return 0;
        }
        long start = System.nanoTime();
        String prefix = "broker-warm-up-" + Long.toString(System.currentTimeMillis(), 36);
        RaceTopics topics = RaceTopicsSetup.prepare(cluster, prefix, records);
        RunResult result;
        try {
            result = new RaceRunner(cluster.bootstrapServers(), Map.of())
                    .run(Contestant.CLIENTS.implementation(), topics, records, TIMEOUT);
        } catch (TimeoutException e) {
            throw new IllegalStateException("the broker's warm-up did not finish within " + TIMEOUT, e);
        } finally {
            RaceTopicsSetup.delete(cluster, topics);
        }
        System.err.printf("broker warmed up with %,d orders in %.1f s%n", records, (System.nanoTime() - start) / 1e9);
        return result.outputs();
    }
}
