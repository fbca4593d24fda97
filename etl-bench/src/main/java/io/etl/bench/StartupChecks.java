package io.etl.bench;

import io.etl.kafka.common.internal.AdminSettings;
import io.etl.kafka.common.internal.ConnectivityCheck;
import io.etl.kafka.common.internal.SharedClusterProbe;
import io.etl.kafka.common.internal.TopicProbe;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;

/**
 * What the example's start-up connectivity checks cost (one source, four sinks, one cluster), in a warm JVM:
 * one check per connector as before (an admin client each, plus one for the source's topics), the shared
 * probe of one run with the checks one after another, and the same with the sinks' checks concurrent.
 *
 * <pre>
 * java -cp etl-bench/target/etl-bench.jar io.etl.bench.StartupChecks 127.0.0.1:9092 40
 * </pre>
 */
public final class StartupChecks {

    private static final List<String> SINK_TOPICS = List.of("orders-eu", "orders-us", "orders-apac", "orders-unrouted");
    private static final String SOURCE_TOPIC = "orders";

    private final Map<String, Object> connection;
    private final ExecutorService sinks = Executors.newFixedThreadPool(SINK_TOPICS.size());

    private StartupChecks(String brokers) {
        this.connection = Map.of("bootstrap.servers", brokers);
    }

    /**
     * @param args bootstrap servers, then the number of measured rounds (default 40)
     */
    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: StartupChecks BOOTSTRAP_SERVERS [ROUNDS]");
            System.exit(2);
        }
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 40;
        StartupChecks checks = new StartupChecks(args[0]);
        checks.createTopics();
        for (int i = 0; i < 5; i++) {
            checks.unshared();
            checks.shared();
            checks.sharedConcurrent();
        }
        List<Long> unshared = new ArrayList<>();
        List<Long> shared = new ArrayList<>();
        List<Long> concurrent = new ArrayList<>();
        for (int i = 0; i < rounds; i++) {
            unshared.add(checks.unshared());
            shared.add(checks.shared());
            concurrent.add(checks.sharedConcurrent());
        }
        System.out.printf(
                "start-up checks of 1 source + 4 sinks, median of %d: one per connector %.1f ms,"
                        + " shared probe %.1f ms, shared probe with concurrent sinks %.1f ms%n",
                rounds, median(unshared), median(shared), median(concurrent));
        checks.sinks.shutdown();
        System.exit(0);
    }

    private void createTopics() throws Exception {
        try (Admin admin = Admin.create(new HashMap<>(connection))) {
            List<String> wanted = new ArrayList<>(SINK_TOPICS);
            wanted.add(SOURCE_TOPIC);
            wanted.removeAll(admin.listTopics().names().get(30, TimeUnit.SECONDS));
            if (!wanted.isEmpty()) {
                admin.createTopics(wanted.stream()
                                .map(t -> new NewTopic(t, 6, (short) 1))
                                .toList())
                        .all()
                        .get(30, TimeUnit.SECONDS);
            }
        }
    }

    /** As before: every connector its own check, the source a second admin client for its topics. */
    private long unshared() throws Exception {
        long started = System.nanoTime();
        for (String topic : SINK_TOPICS) {
            ConnectivityCheck.of(connection, "sinks." + topic + ".kafka")
                    .topic(topic)
                    .run();
        }
        ConnectivityCheck.of(connection, "source.orders.kafka").run();
        try (Admin admin = Admin.create(
                AdminSettings.properties(connection, Duration.ofSeconds(30), "etl-check-source.orders.kafka"))) {
            TopicProbe.of(admin, Duration.ofSeconds(30)).describe(List.of(SOURCE_TOPIC), false);
        }
        return System.nanoTime() - started;
    }

    private long shared() throws Exception {
        String run = UUID.randomUUID().toString();
        long started = System.nanoTime();
        for (String topic : SINK_TOPICS) {
            ConnectivityCheck.of(connection, "sinks." + topic + ".kafka")
                    .sharedWithin(run)
                    .topic(topic)
                    .run();
        }
        source(run);
        return System.nanoTime() - started;
    }

    private long sharedConcurrent() throws Exception {
        String run = UUID.randomUUID().toString();
        long started = System.nanoTime();
        List<Future<?>> opening = new ArrayList<>();
        for (String topic : SINK_TOPICS) {
            opening.add(sinks.submit(() -> ConnectivityCheck.of(connection, "sinks." + topic + ".kafka")
                    .sharedWithin(run)
                    .topic(topic)
                    .run()));
        }
        for (Future<?> f : opening) {
            f.get(30, TimeUnit.SECONDS);
        }
        source(run);
        return System.nanoTime() - started;
    }

    /** The source's check and topic check, as {@code StartupCheck} does them within a run. */
    private void source(String run) throws Exception {
        ConnectivityCheck.of(connection, "source.orders.kafka")
                .sharedWithin(run)
                .run();
        Properties props =
                AdminSettings.properties(connection, Duration.ofSeconds(30), "etl-check-source.orders.kafka");
        SharedClusterProbe probe = SharedClusterProbe.lease(run, props);
        try {
            TopicProbe.of(probe.admin(), Duration.ofSeconds(30)).describe(List.of(SOURCE_TOPIC), false);
        } finally {
            probe.release();
        }
    }

    private static double median(List<Long> nanos) {
        List<Long> sorted = new ArrayList<>(nanos);
        Collections.sort(sorted);
        return sorted.get(sorted.size() / 2) / 1e6;
    }
}
