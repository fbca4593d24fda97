package io.etl.kafka.source.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etl.testkit.EmbeddedKafka;
import io.etl.testkit.KafkaTestCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Acceptance 2: a pipeline JVM is killed with SIGKILL at three random moments while it consumes 50,000
 * orders; every restart resumes, nothing is lost, and no offset is ever committed ahead of durable output.
 * Two more runs, with the default checkpoint settings, measure the duplicate window: three SIGKILLs while
 * the pipeline reads a backlog as fast as it can, and three while the input arrives at a steady 15,000
 * records/s. Each prints its duplicate ratio (duplicates over output records).
 */
@EmbeddedKafka(shared = true)
class CrashRecoveryIT {

    private static final int ORDERS = 50_000;
    private static final int PARTITIONS = 3;
    private static final int RATE = 4_000;

    private static final int FULL_SPEED_ORDERS = 400_000;
    private static final int STEADY_RATE = 15_000;
    private static final int STEADY_ORDERS = 360_000;
    /**
     * Bounds asserted on the duplicate ratio. Measured values are in docs/delivery-guarantees.md (1-2.5 %
     * on a heavily loaded 2-core machine); the bounds leave room for such load but still fail on a window
     * of whole seconds: committing once a second, the steady run measured 28 %.
     */
    private static final double FULL_SPEED_MAX_DUPLICATES = 0.05;
    private static final double STEADY_MAX_DUPLICATES = 0.05;

    private final List<ChildPipeline> children = new ArrayList<>();

    @AfterEach
    void killChildren() {
        children.forEach(ChildPipeline::close);
    }

    @Test
    @Timeout(240)
    void losesNothingAndNeverCommitsAheadOfOutputAcrossThreeSigkills(KafkaTestCluster kafka, @TempDir Path dir) {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        String uid = Delivery.unique("crash");
        String input = "in-" + uid;
        String output = "out-" + uid;
        String group = "group-" + uid;
        kafka.createTopic(input, PARTITIONS);
        kafka.createTopic(output, PARTITIONS);
        Path yaml = PipelineYaml.of(uid, kafka.bootstrapServers(), input, group)
                .groupInstanceId("crash-instance").sessionTimeout("6s")
                .sink("out", output).pool(4, 4, 500, "5ms").checkpoint("100ms", "10s")
                .write(dir);
        Path logs = Path.of("target", "it-logs");
        // kill when the committed total first passes each of these
        long[] killAt = {
                (long) (ORDERS * (0.10 + 0.15 * random.nextDouble())),
                (long) (ORDERS * (0.40 + 0.15 * random.nextDouble())),
                (long) (ORDERS * (0.70 + 0.15 * random.nextDouble()))};
        System.out.printf("crash test seed %d, kills at committed totals %d, %d, %d%n", seed, killAt[0], killAt[1],
                killAt[2]);

        int[] kills = {0};
        int[] samples = {0};
        long[] lastCommitted = {0};
        long[] killedAt = {0};
        try (LoadProducer load = LoadProducer.start(kafka, input, PARTITIONS, ORDERS, RATE)) {
            children.add(ChildPipeline.start("copy", yaml, logs.resolve(uid + "-0.log")));
            await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(150)).until(() -> {
                ChildPipeline current = children.get(children.size() - 1);
                assertThat(current.isAlive()).as("pipeline JVM exited early:%n%s", current.tail()).isTrue();
                Map<TopicPartition, Long> committed = kafka.committedOffsets(group);
                // every id below a committed offset must already be in the output, read after the commit was seen
                Map<String, Integer> out = Delivery.idCounts(kafka, output);
                long total = 0;
                for (Map.Entry<TopicPartition, Long> e : committed.entrySet()) {
                    int p = e.getKey().partition();
                    for (long offset = 0; offset < e.getValue(); offset++) {
                        String id = LoadProducer.idAt(PARTITIONS, p, offset);
                        assertThat(out).as("output of %s, below committed offset %d of partition %d (sample %d)",
                                id, e.getValue(), p, samples[0]).containsKey(id);
                    }
                    total += e.getValue();
                }
                samples[0]++;
                assertThat(total).as("committed total never goes backwards").isGreaterThanOrEqualTo(lastCommitted[0]);
                lastCommitted[0] = total;
                // a copy is killed only once it committed progress of its own (a slow start must not turn
                // several kill points into kills of copies that never ran)
                if (kills[0] < killAt.length && total >= killAt[kills[0]] && total > killedAt[0]) {
                    current.kill9();
                    killedAt[0] = total;
                    kills[0]++;
                    System.out.printf("SIGKILL %d at committed total %d, produced %d%n", kills[0], total, load.sent());
                    children.add(ChildPipeline.start("copy", yaml, logs.resolve(uid + "-" + kills[0] + ".log")));
                    return false;
                }
                return kills[0] == killAt.length && load.done() && total == ORDERS;
            });
        }
        ChildPipeline last = children.get(children.size() - 1);
        await().atMost(Duration.ofSeconds(60)).until(() -> last.tail().contains("assigned"));
        last.sigterm();
        assertThat(last.waitFor(Duration.ofSeconds(30))).as("exit code after SIGTERM:%n%s", last.tail()).isZero();

        Map<String, Integer> out = Delivery.idCounts(kafka, output);
        List<String> missing = new ArrayList<>();
        for (int i = 0; i < ORDERS; i++) {
            if (!out.containsKey(Orders.id(i))) {
                missing.add(Orders.id(i));
            }
        }
        System.out.printf("crash test: %d samples, %d kills, %d duplicates over %d orders%n", samples[0], kills[0],
                Delivery.duplicates(out), ORDERS);
        assertThat(missing).as("orders missing from the output").isEmpty();
        assertThat(kills[0]).isEqualTo(3);
        Map<TopicPartition, Long> expectedEnd = new HashMap<>(kafka.endOffsets(input));
        assertThat(kafka.committedOffsets(group)).isEqualTo(expectedEnd);
    }

    @Test
    @Timeout(300)
    void keepsDuplicatesSmallAfterThreeSigkillsAtFullSpeed(KafkaTestCluster kafka, @TempDir Path dir) {
        double ratio = duplicateRatioAfterThreeKills(kafka, dir, "full", FULL_SPEED_ORDERS, 0);
        assertThat(ratio).as("duplicates over output, backlog read at full speed")
                .isLessThanOrEqualTo(FULL_SPEED_MAX_DUPLICATES);
    }

    @Test
    @Timeout(300)
    void keepsDuplicatesSmallAfterThreeSigkillsAtASteadyRate(KafkaTestCluster kafka, @TempDir Path dir) {
        double ratio = duplicateRatioAfterThreeKills(kafka, dir, "steady", STEADY_ORDERS, STEADY_RATE);
        assertThat(ratio).as("duplicates over output, input at %d records/s", STEADY_RATE)
                .isLessThanOrEqualTo(STEADY_MAX_DUPLICATES);
    }

    /**
     * With {@code group_instance_id}, a copy restarted after a SIGKILL gets its partitions back when it
     * joins, instead of after the dead member's session timeout (30 s here): it commits new progress
     * within 3 s of starting its pipeline.
     */
    @Test
    @Timeout(120)
    void processesAgainWithinThreeSecondsOfARestartWithStaticMembership(KafkaTestCluster kafka,
                                                                           @TempDir Path dir) {
        String uid = Delivery.unique("static");
        String input = "in-" + uid;
        String output = "out-" + uid;
        String group = "group-" + uid;
        kafka.createTopic(input, PARTITIONS);
        kafka.createTopic(output, PARTITIONS);
        Path yaml = PipelineYaml.of(uid, kafka.bootstrapServers(), input, group)
                .groupInstanceId("static-instance").sessionTimeout("30s")
                .sink("out", output).checkpoint(null, "10s")
                .write(dir);
        Path logs = Path.of("target", "it-logs");
        try (LoadProducer load = LoadProducer.start(kafka, input, PARTITIONS, 200_000, 2_000)) {
            ChildPipeline first = ChildPipeline.start("copy", yaml, logs.resolve(uid + "-0.log"));
            children.add(first);
            await().atMost(Duration.ofSeconds(60)).until(() -> committedTotal(kafka, group) > 0);
            first.kill9();
            long atKill = committedTotal(kafka, group);

            ChildPipeline second = ChildPipeline.start("copy", yaml, logs.resolve(uid + "-1.log"));
            children.add(second);
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20))
                    .until(() -> second.tail().contains("' started: source"));
            long started = System.nanoTime();
            await().atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(20))
                    .until(() -> committedTotal(kafka, group) > atKill);
            Duration resumed = Duration.ofNanos(System.nanoTime() - started);
            System.out.printf("static membership: new commits %d ms after the restarted pipeline started%n",
                    resumed.toMillis());
            assertThat(resumed).as("from pipeline start to new commits after a SIGKILL:%n%s", second.tail())
                    .isLessThan(Duration.ofSeconds(3));
        }
    }

    private static long committedTotal(KafkaTestCluster kafka, String group) {
        return kafka.committedOffsets(group).values().stream().mapToLong(Long::longValue).sum();
    }

    /**
     * Runs the copy pipeline with default pool and checkpoint settings over {@code orders} orders, produced
     * beforehand ({@code rate} 0) or at {@code rate} per second, kills it three times at random points in
     * the middle, lets the last copy finish, checks that nothing was lost and returns duplicates / output.
     */
    private double duplicateRatioAfterThreeKills(KafkaTestCluster kafka, Path dir, String label, int orders,
                                                 int rate) {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        String uid = Delivery.unique("crash-" + label);
        String input = "in-" + uid;
        String output = "out-" + uid;
        String group = "group-" + uid;
        kafka.createTopic(input, PARTITIONS);
        kafka.createTopic(output, PARTITIONS);
        Path yaml = PipelineYaml.of(uid, kafka.bootstrapServers(), input, group)
                .groupInstanceId("crash-" + label).sessionTimeout("6s")
                .sink("out", output).checkpoint(null, "10s")
                .write(dir);
        Path logs = Path.of("target", "it-logs");
        // each copy is killed at a random moment 0.2-0.8 s after it first committed progress of its own:
        // independent of when it commits, so the kill does not favour any commit schedule
        long[] killDue = {0};
        int[] kills = {0};
        long[] lastCommitted = {0};
        long[] killedAt = {0};
        System.out.printf("crash test (%s): seed %d%n", label, seed);
        try (LoadProducer load = LoadProducer.start(kafka, input, PARTITIONS, orders,
                rate == 0 ? Integer.MAX_VALUE : rate)) {
            if (rate == 0) {
                await().atMost(Duration.ofSeconds(60)).until(load::done);
            }
            children.add(ChildPipeline.start("copy", yaml, logs.resolve(uid + "-0.log")));
            await().atMost(Duration.ofSeconds(240)).pollInterval(Duration.ofMillis(50)).until(() -> {
                ChildPipeline current = children.get(children.size() - 1);
                assertThat(current.isAlive()).as("pipeline JVM exited early:%n%s", current.tail()).isTrue();
                long total = kafka.committedOffsets(group).values().stream().mapToLong(Long::longValue).sum();
                assertThat(total).as("committed total never goes backwards").isGreaterThanOrEqualTo(lastCommitted[0]);
                lastCommitted[0] = total;
                long now = System.nanoTime();
                if (kills[0] < 3 && killDue[0] == 0 && total > killedAt[0] && total < orders) {
                    killDue[0] = now + TimeUnit.MILLISECONDS.toNanos(200 + random.nextInt(600));
                }
                if (kills[0] < 3 && killDue[0] != 0 && now - killDue[0] >= 0) {
                    killDue[0] = 0;
                    current.kill9();
                    kills[0]++;
                    killedAt[0] = total;
                    System.out.printf("crash test (%s): SIGKILL %d at committed total %d, produced %d%n", label,
                            kills[0], total, load.sent());
                    children.add(ChildPipeline.start("copy", yaml, logs.resolve(uid + "-" + kills[0] + ".log")));
                    return false;
                }
                return kills[0] == 3 && load.done() && total == orders;
            });
        }
        ChildPipeline last = children.get(children.size() - 1);
        // the last copy may have had nothing left to do: let it start before asking it to stop
        await().atMost(Duration.ofSeconds(60)).until(() -> last.tail().contains("assigned"));
        last.sigterm();
        assertThat(last.waitFor(Duration.ofSeconds(30))).as("exit code after SIGTERM:%n%s", last.tail()).isZero();

        Map<String, Integer> out = Delivery.idCounts(kafka, output);
        List<String> missing = new ArrayList<>();
        for (int i = 0; i < orders; i++) {
            if (!out.containsKey(Orders.id(i))) {
                missing.add(Orders.id(i));
            }
        }
        long duplicates = Delivery.duplicates(out);
        long written = orders + duplicates - missing.size();
        double ratio = (double) duplicates / written;
        System.out.printf("crash test (%s, seed %d, rate %s): %d duplicates in %d output records over %d orders:"
                        + " duplicate ratio %.3f%%%n", label, seed, rate == 0 ? "full speed" : rate + "/s", duplicates,
                written, orders, ratio * 100);
        assertThat(missing).as("orders missing from the output").isEmpty();
        assertThat(kills[0]).isEqualTo(3);
        return ratio;
    }
}
