package io.etl.kafka.source.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etl.testkit.EmbeddedKafka;
import io.etl.testkit.KafkaTestCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
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
 * Two more runs, with the default checkpoint settings, measure the duplicate window: three SIGKILLs while
 * the pipeline reads a backlog as fast as it can, and three while the input arrives at a steady 15,000
 * records/s and the pipeline keeps up with it. Each prints its duplicate ratio (duplicates over output
 * records) and, per kill, what the dead copy had written beyond its last commit.
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
     * thirteen runs on a 2-core machine. At a steady rate it is 0.09-0.19 %. Both bounds fail on a window of
     * whole seconds (committing once a second measured 21-31 %). Commits that waited for the end of a fetch
     * measured 1.7-5.8 % here, median 2.7 %; the full-speed bound leaves room for a noisy machine rather than
     * catch that in every run, and PipelineCheckpointTest and KafkaSourceIT check that mechanism directly.
     */
    private static final double FULL_SPEED_MAX_DUPLICATES = 0.04;

    private static final double STEADY_MAX_DUPLICATES = 0.01;

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
        double ratio = duplicateRatioAfterThreeKills(kafka, dir, "full", FULL_SPEED_ORDERS, 0);
        assertThat(ratio)
                .as("duplicates over output, backlog read at full speed")
                .isLessThanOrEqualTo(FULL_SPEED_MAX_DUPLICATES);
    }

    @Test
    @Timeout(300)
    void keepsDuplicatesSmallAfterThreeSigkillsAtASteadyRate(KafkaTestCluster kafka, @TempDir Path dir) {
        double ratio = duplicateRatioAfterThreeKills(kafka, dir, "steady", STEADY_ORDERS, STEADY_RATE);
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
     * beforehand ({@code rate} 0) or at {@code rate} per second, kills it three times at random points in
     * the middle (at a steady rate, only once the copy has caught up within a quarter second of input), lets
     * the last copy finish, checks that nothing was lost and returns duplicates / output.
     */
    private double duplicateRatioAfterThreeKills(KafkaTestCluster kafka, Path dir, String label, int orders, int rate) {
        // at a steady rate a copy is killed only once it has caught up with the input: a restarted copy first
        // reads what arrived while it was down at full speed, and that is the full-speed case's to measure
        boolean steady = rate > 0;
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
        try (LoadProducer load =
                LoadProducer.start(kafka, t.input(), PARTITIONS, orders, rate == 0 ? Integer.MAX_VALUE : rate)) {
            if (rate == 0) {
                await().atMost(Duration.ofSeconds(60)).until(load::done);
            }
            children.start("copy", yaml, t.uid() + "-0");
            children.awaitWhileRunning(Duration.ofSeconds(240), Duration.ofMillis(50), current -> {
                long total = kafka.committedTotal(t.group());
                assertThat(total).as("committed total never goes backwards").isGreaterThanOrEqualTo(lastCommitted[0]);
                lastCommitted[0] = total;
                long now = System.nanoTime();
                boolean caughtUp = !steady || load.done() || load.sent() - total <= rate / 4;
                if (kills[0] < 3 && killDue[0] == 0 && total > killedAt[0] && total < orders && caughtUp) {
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
                "crash test (%s, seed %d, rate %s): %d duplicates in %d output records over %d orders:"
                        + " duplicate ratio %.3f%%%n",
                label, seed, rate == 0 ? "full speed" : rate + "/s", duplicates, written, orders, ratio * 100);
        assertThat(missing).as("orders missing from the output").isEmpty();
        assertThat(kills[0]).isEqualTo(3);
        return ratio;
    }
}
