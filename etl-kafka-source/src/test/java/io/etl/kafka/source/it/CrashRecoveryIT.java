package io.etl.kafka.source.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.etl.testkit.EmbeddedKafka;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.TestRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Acceptance 2: a pipeline JVM is killed with SIGKILL at three random moments while it consumes 50,000
 * orders; every restart resumes, nothing is lost, and no offset is ever committed ahead of durable output.
 * Two more runs measure the duplicate window: three SIGKILLs while the copy pipeline reads a backlog as fast as it
 * can, and three SIGKILLs 2-5 s apart of a pipeline shaped like a user's ({@link OrderLines}, every setting at its
 * default) while the input arrives at a steady 15,000 records/s. Each prints its duplicate ratio (duplicates over
 * output records) and where the duplicates came from.
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
     * Bounds asserted on the duplicate ratio; measured values are in docs/delivery-guarantees.md. At full speed
     * the replay is what was written but not yet committed when the process died: median 1.4 %, 0.7-3.8 % over
     * thirteen runs on a 2-core machine. For the user-shaped pipeline at a steady rate, a kill of a copy keeping up
     * replayed 151-978 orders (0.04-0.34 %), one of a copy still reading a backlog 768-1,744. Both bounds fail on
     * a window of whole seconds (committing once a second measured 21-31 %). Commits that waited for the end of a
     * fetch measured 1.7-5.8 % here, median 2.7 %; the full-speed bound leaves room for a noisy machine rather than
     * catch that in every run, and PipelineCheckpointTest and KafkaSourceIT check that mechanism directly.
     */
    private static final double FULL_SPEED_MAX_DUPLICATES = 0.04;

    private static final double STEADY_MAX_DUPLICATES = 0.005;

    @RegisterExtension
    final ChildPipelines children = new ChildPipelines();

    @Test
    @Timeout(240)
    void losesNothingAndNeverCommitsAheadOfOutputAcrossThreeSigkills(KafkaTestCluster kafka, @TempDir Path dir) {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        RunTopics t = RunTopics.create(kafka, "crash", PARTITIONS);
        String group = t.group();
        Path yaml = t.staticMemberYaml(kafka)
                .sessionTimeout("6s")
                .pool(4, 4, 500, "5ms")
                .checkpoint("100ms", "10s")
                .write(dir);
        // kill when the committed total first passes each of these
        long[] killAt = {
            (long) (ORDERS * (0.10 + 0.15 * random.nextDouble())),
            (long) (ORDERS * (0.40 + 0.15 * random.nextDouble())),
            (long) (ORDERS * (0.70 + 0.15 * random.nextDouble()))
        };
        System.out.printf(
                "crash test seed %d, kills at committed totals %d, %d, %d%n", seed, killAt[0], killAt[1], killAt[2]);

        int[] kills = {0};
        int[] samples = {0};
        long[] lastCommitted = {0};
        long[] killedAt = {0};
        try (LoadProducer load = LoadProducer.start(kafka, t.input(), PARTITIONS, ORDERS, RATE)) {
            children.start("copy", yaml, t.uid() + "-0");
            children.awaitWhileRunning(Duration.ofSeconds(180), Duration.ofMillis(150), current -> {
                Map<TopicPartition, Long> committed = kafka.committedOffsets(group);
                // every id below a committed offset must already be in the output, read after the commit was
                // seen
                Map<String, Integer> out = Delivery.idCounts(kafka, t.output());
                long total = Delivery.assertCommittedIsWritten(committed, out, PARTITIONS, "sample " + samples[0]);
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
                    children.start("copy", yaml, t.uid() + "-" + kills[0]);
                    return false;
                }
                return kills[0] == killAt.length && load.done() && total == ORDERS;
            });
        }
        children.last().stopOnceAssigned();

        Map<String, Integer> out = Delivery.idCounts(kafka, t.output());
        List<String> missing = Delivery.missing(out, ORDERS);
        System.out.printf(
                "crash test: %d samples, %d kills, %d duplicates over %d orders%n",
                samples[0], kills[0], Delivery.duplicates(out), ORDERS);
        assertThat(missing).as("orders missing from the output").isEmpty();
        assertThat(kills[0]).isEqualTo(3);
        Map<TopicPartition, Long> expectedEnd = new HashMap<>(kafka.endOffsets(t.input()));
        assertThat(kafka.committedOffsets(group)).isEqualTo(expectedEnd);
    }

    @Test
    @Timeout(300)
    void keepsDuplicatesSmallAfterThreeSigkillsAtFullSpeed(KafkaTestCluster kafka, @TempDir Path dir) {
        double ratio = duplicateRatioAfterThreeKillsAtFullSpeed(kafka, dir, FULL_SPEED_ORDERS);
        assertThat(ratio)
                .as("duplicates over output, backlog read at full speed")
                .isLessThanOrEqualTo(FULL_SPEED_MAX_DUPLICATES);
    }

    /**
     * A pipeline shaped like a user's ({@link OrderLines}: a flatMap to one to three lines, a split to three
     * topics, every setting at its default, no static membership) reads orders arriving at 15,000 records/s and is
     * killed with SIGKILL three times, 2-5 s apart, each kill followed at once by a restart; the first kill comes
     * while the copy keeps up with the input. Nothing may be lost, no committed offset may go backwards, and the
     * lines written twice must stay within 0.5 % of the output. It prints, per kill, whether the copy had
     * partitions, and for the duplicates which replay they belong to and whether an order was written twice whole.
     */
    @Test
    @Timeout(300)
    void keepsDuplicatesSmallForAUserShapedPipelineAfterThreeSigkillsAtASteadyRate(
            KafkaTestCluster kafka, @TempDir Path dir) throws Exception {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        String uid = Delivery.unique("lines");
        String input = "in-" + uid;
        String group = "group-" + uid;
        kafka.createTopic(input, PARTITIONS);
        Map<String, String> topics = new LinkedHashMap<>();
        for (String sink : OrderLines.SINKS) {
            topics.put(sink, sink + "-" + uid);
            kafka.createTopic(topics.get(sink), PARTITIONS);
        }
        Path yaml = dir.resolve(uid + ".yaml");
        Files.writeString(yaml, OrderLines.defaultYaml(uid, kafka.bootstrapServers(), input, group, topics));
        System.out.printf("crash test (user-shaped): seed %d%n", seed);

        Map<TopicPartition, Long> lastCommitted = new HashMap<>();
        List<Map<TopicPartition, Long>> committedAtKill = new ArrayList<>();
        long[] nextKill = {0};
        int[] kills = {0};
        boolean[] firstKillWhileFlowing = {false};
        // the input starts once the first copy has its partitions: like a pipeline that has been running, it meets
        // a steady rate rather than a backlog built up while its JVM started
        ChildPipeline first = children.start("lines", yaml, uid + "-0");
        await().atMost(Duration.ofSeconds(120)).until(() -> first.tail().contains("assigned"));
        long begun = System.nanoTime();
        try (LoadProducer load = LoadProducer.start(kafka, input, PARTITIONS, STEADY_ORDERS, STEADY_RATE)) {
            children.awaitWhileRunning(Duration.ofSeconds(240), Duration.ofMillis(50), current -> {
                Map<TopicPartition, Long> committed = kafka.committedOffsets(group);
                committed.forEach((tp, offset) -> {
                    assertThat(offset)
                            .as("committed offset of %s never goes backwards", tp)
                            .isGreaterThanOrEqualTo(lastCommitted.getOrDefault(tp, 0L));
                    lastCommitted.put(tp, offset);
                });
                long now = System.nanoTime();
                long total =
                        committed.values().stream().mapToLong(Long::longValue).sum();
                // the first kill 2-5 s after the first copy committed, and while it keeps up with the input (within
                // a quarter second of it), as a pipeline that has been running would; each next one 2-5 s after
                // the one before, whatever the restarted copy is doing
                boolean keepingUp = load.sent() - total <= STEADY_RATE / 4;
                if (kills[0] == 0 && nextKill[0] == 0 && !committed.isEmpty()) {
                    nextKill[0] = now + TimeUnit.MILLISECONDS.toNanos(2_000 + random.nextInt(3_000));
                }
                if (kills[0] < 3 && nextKill[0] != 0 && now - nextKill[0] >= 0 && (kills[0] > 0 || keepingUp)) {
                    boolean assigned = current.tail().contains("assigned");
                    current.kill9();
                    kills[0]++;
                    Map<TopicPartition, Long> atKill = kafka.committedOffsets(group);
                    committedAtKill.add(atKill);
                    if (kills[0] == 1) {
                        firstKillWhileFlowing[0] = !load.done();
                    }
                    System.out.printf(
                            "crash test (user-shaped): SIGKILL %d at %d ms (the copy %s), committed total %d, produced"
                                    + " %d%n",
                            kills[0],
                            TimeUnit.NANOSECONDS.toMillis(now - begun),
                            assigned ? "had partitions" : "was still waiting for partitions",
                            atKill.values().stream().mapToLong(Long::longValue).sum(),
                            load.sent());
                    nextKill[0] = kills[0] < 3 ? now + TimeUnit.MILLISECONDS.toNanos(2_000 + random.nextInt(3_000)) : 0;
                    children.start("lines", yaml, uid + "-" + kills[0]);
                    return false;
                }
                return kills[0] == 3 && load.done() && total == STEADY_ORDERS;
            });
        }
        System.out.printf(
                "crash test (user-shaped): caught up %d ms after the start%n",
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begun));
        children.last().stopOnceAssigned();

        List<TestRecord> records = new ArrayList<>();
        for (String topic : topics.values()) {
            records.addAll(kafka.readAll(topic));
        }
        Map<String, Integer> out = OrderLines.lineCounts(records);
        List<String> missing = OrderLines.missing(out, STEADY_ORDERS);
        long duplicates = Delivery.duplicates(out);
        // which kill's replay each duplicate belongs to: the last kill whose committed offset was at or below it
        long[] perKill = new long[committedAtKill.size() + 1];
        // an order some of whose lines were written twice and others once: the dead copy had written only part of it
        Map<Integer, int[]> replayedOrders = new HashMap<>();
        out.forEach((id, n) -> {
            if (n > 1) {
                int order = OrderLines.orderOf(id);
                replayedOrders.computeIfAbsent(order, o -> new int[1])[0]++;
                TopicPartition tp = new TopicPartition(input, order % PARTITIONS);
                long offset = order / PARTITIONS;
                int k = committedAtKill.size();
                while (k > 0 && committedAtKill.get(k - 1).getOrDefault(tp, 0L) > offset) {
                    k--;
                }
                perKill[k] += n - 1;
            }
        });
        long partial = replayedOrders.entrySet().stream()
                .filter(e -> e.getValue()[0] < OrderLines.linesOf(Orders.id(e.getKey())))
                .count();
        double ratio = (double) duplicates / records.size();
        System.out.printf(
                "crash test (user-shaped, seed %d, rate %d/s): %d duplicates in %d output lines over %d orders:"
                        + " duplicate ratio %.3f%%; by replay [before the first kill, after kill 1, 2, 3] %s; %d orders"
                        + " written twice, %d of them only in part%n",
                seed,
                STEADY_RATE,
                duplicates,
                records.size(),
                STEADY_ORDERS,
                ratio * 100,
                Arrays.toString(perKill),
                replayedOrders.size(),
                partial);
        assertThat(missing).as("lines missing from the output").isEmpty();
        assertThat(kills[0]).isEqualTo(3);
        assertThat(kafka.committedOffsets(group)).isEqualTo(kafka.endOffsets(input));
        // the figure measures a kill of a copy keeping up with the input: a machine too busy to run the pipeline
        // at this rate while the input flowed measures nothing, and says so rather than pass
        assumeTrue(
                firstKillWhileFlowing[0],
                "the first copy never kept up with " + STEADY_RATE + " records/s while the input flowed: this"
                        + " machine is too busy to measure the replay of a copy keeping up");
        assertThat(ratio)
                .as("duplicates over output, input at %d records/s", STEADY_RATE)
                .isLessThanOrEqualTo(STEADY_MAX_DUPLICATES);
    }

    /**
     * With {@code group_instance_id}, a copy restarted after a SIGKILL gets its partitions back when it
     * joins, instead of after the dead member's session timeout (30 s here): it commits new progress
     * within 3 s of starting its pipeline.
     */
    @Test
    @Timeout(120)
    void processesAgainWithinThreeSecondsOfARestartWithStaticMembership(KafkaTestCluster kafka, @TempDir Path dir) {
        RunTopics t = RunTopics.create(kafka, "static", PARTITIONS);
        Path yaml = t.staticMemberYaml(kafka)
                .sessionTimeout("30s")
                .checkpoint(null, "10s")
                .write(dir);
        try (LoadProducer load = LoadProducer.start(kafka, t.input(), PARTITIONS, 200_000, 2_000)) {
            ChildPipeline first = children.start("copy", yaml, t.uid() + "-0");
            await().atMost(Duration.ofSeconds(60)).until(() -> kafka.committedTotal(t.group()) > 0);
            first.kill9();
            long atKill = kafka.committedTotal(t.group());

            ChildPipeline second = children.start("copy", yaml, t.uid() + "-1");
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(20))
                    .until(() -> second.tail().contains("' started: source"));
            long started = System.nanoTime();
            await().atMost(Duration.ofSeconds(40))
                    .pollInterval(Duration.ofMillis(20))
                    .until(() -> kafka.committedTotal(t.group()) > atKill);
            Duration resumed = Duration.ofNanos(System.nanoTime() - started);
            System.out.printf(
                    "static membership: new commits %d ms after the restarted pipeline started%n", resumed.toMillis());
            assertThat(resumed)
                    .as("from pipeline start to new commits after a SIGKILL:%n%s", second.tail())
                    .isLessThan(Duration.ofSeconds(3));
        }
    }

    /**
     * Runs the copy pipeline with default pool and checkpoint settings over {@code orders} orders, produced
     * beforehand, kills it three times at random points in the middle, lets the last copy finish, checks that
     * nothing was lost and returns duplicates / output.
     */
    private double duplicateRatioAfterThreeKillsAtFullSpeed(KafkaTestCluster kafka, Path dir, int orders) {
        String label = "full";
        long seed = System.nanoTime();
        Random random = new Random(seed);
        RunTopics t = RunTopics.create(kafka, "crash-" + label, PARTITIONS);
        Path yaml = t.staticMemberYaml(kafka)
                .sessionTimeout("6s")
                .checkpoint(null, "10s")
                .write(dir);
        // each copy is killed at a random moment 0.2-0.8 s after it first committed progress of its own:
        // independent of when it commits, so the kill does not favour any commit schedule
        long[] killDue = {0};
        int[] kills = {0};
        long[] lastCommitted = {0};
        long[] killedAt = {0};
        long[] writtenTwice = {0};
        System.out.printf("crash test (%s): seed %d%n", label, seed);
        try (LoadProducer load = LoadProducer.start(kafka, t.input(), PARTITIONS, orders, Integer.MAX_VALUE)) {
            await().atMost(Duration.ofSeconds(60)).until(load::done);
            children.start("copy", yaml, t.uid() + "-0");
            children.awaitWhileRunning(Duration.ofSeconds(240), Duration.ofMillis(50), current -> {
                long total = kafka.committedTotal(t.group());
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
                    // read after the kill: a commit the copy sent just before it died may land after the sample
                    killedAt[0] = kafka.committedTotal(t.group());
                    // what the dead copy wrote beyond its last commit: the next copy writes it again
                    long uncommitted = kafka.endTotal(t.output()) - killedAt[0] - writtenTwice[0];
                    writtenTwice[0] += uncommitted;
                    System.out.printf(
                            "crash test (%s): SIGKILL %d at committed total %d, produced %d; %d written beyond the"
                                    + " last commit%n",
                            label, kills[0], killedAt[0], load.sent(), uncommitted);
                    children.start("copy", yaml, t.uid() + "-" + kills[0]);
                    return false;
                }
                return kills[0] == 3 && load.done() && total == orders;
            });
        }
        children.last().stopOnceAssigned();

        Map<String, Integer> out = Delivery.idCounts(kafka, t.output());
        List<String> missing = Delivery.missing(out, orders);
        long duplicates = Delivery.duplicates(out);
        long written = orders + duplicates - missing.size();
        double ratio = (double) duplicates / written;
        System.out.printf(
                "crash test (%s, seed %d, rate full speed): %d duplicates in %d output records over %d orders:"
                        + " duplicate ratio %.3f%%%n",
                label, seed, duplicates, written, orders, ratio * 100);
        assertThat(missing).as("orders missing from the output").isEmpty();
        assertThat(kills[0]).isEqualTo(3);
        return ratio;
    }
}
