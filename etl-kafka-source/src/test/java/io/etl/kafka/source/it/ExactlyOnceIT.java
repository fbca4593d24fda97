package io.etl.kafka.source.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etl.testkit.EmbeddedKafka;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.TestRecord;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code pipeline.delivery: exactly_once} against a real broker, with pipeline JVMs that are killed, stopped
 * and frozen: a {@code read_committed} audit of every output topic must find each expected order exactly once.
 */
@EmbeddedKafka(shared = true)
class ExactlyOnceIT {

    private static final int PARTITIONS = 3;
    private static final List<String> BRANCHES = List.of("eu", "us", "apac", "unrouted");

    @RegisterExtension
    final ChildPipelines children = new ChildPipelines();

    @Test
    @Timeout(240)
    void writesEveryOrderExactlyOnceToItsBranchOrTheDeadLetterTopicAcrossThreeSigkills(
            KafkaTestCluster kafka, @TempDir Path dir) {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        Topics t = topics(kafka, "eos-kill", 30_000);
        Path yaml = t.yaml(kafka).groupInstanceId("eos-kill-instance").write(dir);
        long[] killAt = {
            (long) (t.orders * (0.10 + 0.15 * random.nextDouble())),
            (long) (t.orders * (0.40 + 0.15 * random.nextDouble())),
            (long) (t.orders * (0.65 + 0.15 * random.nextDouble()))
        };
        System.out.printf(
                "exactly-once kill test seed %d, kills at committed totals %d, %d, %d%n",
                seed, killAt[0], killAt[1], killAt[2]);
        int[] kills = {0};
        try (LoadProducer load = LoadProducer.start(kafka, t.input, PARTITIONS, t.orders, 3_000)) {
            children.start("split-rejects", yaml, t.uid + "-0");
            children.awaitWhileRunning(Duration.ofSeconds(180), Duration.ofMillis(100), current -> {
                long total = kafka.committedTotal(t.group);
                if (kills[0] < killAt.length && total >= killAt[kills[0]]) {
                    current.kill9();
                    kills[0]++;
                    System.out.printf("SIGKILL %d at committed total %d, produced %d%n", kills[0], total, load.sent());
                    children.start("split-rejects", yaml, t.uid + "-" + kills[0]);
                    return false;
                }
                return kills[0] == killAt.length && load.done() && Delivery.caughtUp(kafka, t.group, t.input);
            });
        }
        // the last copy may have had nothing left to do: let it start before asking it to stop
        children.last().stopOnceAssigned();
        assertThat(kills[0]).isEqualTo(3);
        t.auditAll(kafka).assertExactlyOnce();
    }

    @Test
    @Timeout(180)
    void commitsTheOpenTransactionOnSigtermAndExitsZero(KafkaTestCluster kafka, @TempDir Path dir) {
        Topics t = topics(kafka, "eos-term", 25_000);
        Path yaml = t.yaml(kafka)
                .groupInstanceId("eos-term-instance")
                .checkpoint("1s", "10s")
                .write(dir);
        try (LoadProducer load = LoadProducer.start(kafka, t.input, PARTITIONS, t.orders, 2_500)) {
            ChildPipeline first = children.start("split-rejects", yaml, t.uid + "-first");
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> kafka.committedTotal(t.group) >= t.orders / 8);
            first.sigterm();
            int exit = first.waitFor(Duration.ofSeconds(25));
            assertThat(exit).as("exit code after SIGTERM:%n%s", first.tail()).isZero();
            assertThat(load.sent())
                    .as("signalled while input was still arriving")
                    .isLessThan(t.orders);

            // what is committed is exactly what was read below the committed offsets: the last transaction went
            // out with the offsets of everything the drain processed
            Map<TopicPartition, Long> committed = kafka.committedOffsets(t.group);
            List<Integer> below = new ArrayList<>();
            committed.forEach((tp, offset) -> {
                for (long o = 0; o < offset; o++) {
                    below.add((int) (o * PARTITIONS + tp.partition()));
                }
            });
            Audit stopped = t.audit(kafka, below);
            stopped.assertExactlyOnce();
            assertThat(stopped.unexpected)
                    .as("outputs of orders above the committed offsets")
                    .isEmpty();
            assertThat(kafka.committedTotal(t.group)).isLessThan(t.orders);

            ChildPipeline second = children.start("split-rejects", yaml, t.uid + "-second");
            catchUpAndStop(kafka, t, load, second, Duration.ofSeconds(90));
        }
        t.auditAll(kafka).assertExactlyOnce();
    }

    @Test
    @Timeout(180)
    void fencesAZombieThatWakesUpAfterItsReplacementTookOver(KafkaTestCluster kafka, @TempDir Path dir) {
        Topics t = topics(kafka, "eos-zombie", 30_000);
        Path yaml = t.yaml(kafka).groupInstanceId("eos-zombie-instance").write(dir);
        try (LoadProducer load = LoadProducer.start(kafka, t.input, PARTITIONS, t.orders, 3_000);
                Admin admin = kafka.newAdmin()) {
            ChildPipeline zombie = children.start("split-rejects", yaml, t.uid + "-zombie");
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> kafka.committedTotal(t.group) >= t.orders / 10);
            zombie.sigstop();
            // past the session timeout the frozen member is out of the group
            await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(250))
                    .until(() -> admin.describeConsumerGroups(List.of(t.group))
                            .all()
                            .get()
                            .get(t.group)
                            .members()
                            .isEmpty());
            long frozenAt = kafka.committedTotal(t.group);
            ChildPipeline replacement = children.start("split-rejects", yaml, t.uid + "-replacement");
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> kafka.committedTotal(t.group) > frozenAt + t.orders / 10);
            zombie.sigcont();
            int zombieExit = zombie.waitFor(Duration.ofSeconds(40));
            assertThat(zombieExit)
                    .as("the zombie fails once it wakes up:%n%s", zombie.tail())
                    .isNotIn(0, -1);
            assertThat(zombie.tail().toLowerCase(Locale.ROOT)).contains("fenced");
            catchUpAndStop(kafka, t, load, replacement, Duration.ofSeconds(90));
        }
        t.auditAll(kafka).assertExactlyOnce();
    }

    @Test
    @Timeout(240)
    void staysExactlyOnceScalingOneToThreeToOneWithASigkill(KafkaTestCluster kafka, @TempDir Path dir)
            throws Exception {
        Topics t = topics(kafka, "eos-scale", 30_000);
        Path[] yaml = new Path[3];
        for (int i = 0; i < 3; i++) {
            yaml[i] = t.yaml(kafka).groupInstanceId("eos-scale-" + i).write(dir.resolve("i" + i));
        }
        // slow enough input that the three JVMs start, scale and lose one while it still arrives
        try (LoadProducer load = LoadProducer.start(kafka, t.input, PARTITIONS, t.orders, 1_500);
                Admin admin = kafka.newAdmin()) {
            ChildPipeline first = children.start("split-rejects", yaml[0], t.uid + "-0");
            awaitCommitted(kafka, t.group, t.orders / 10);
            ChildPipeline second = children.start("split-rejects", yaml[1], t.uid + "-1");
            ChildPipeline third = children.start("split-rejects", yaml[2], t.uid + "-2");
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> membersWithPartitions(admin, t.group) == 3);
            awaitCommitted(kafka, t.group, t.orders * 55 / 100);
            second.kill9();
            System.out.printf(
                    "SIGKILL of the second instance at committed total %d, produced %d%n",
                    kafka.committedTotal(t.group), load.sent());
            awaitCommitted(kafka, t.group, t.orders * 75 / 100);
            assertThat(load.done()).as("scaled in while input still arrives").isFalse();
            third.stopWithin(Duration.ofSeconds(25));
            catchUpAndStop(kafka, t, load, first, Duration.ofSeconds(120));
        }
        // the killed instance never comes back: its open transaction holds read_committed readers until the
        // brokers abort it after transaction_timeout
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> t.auditAll(kafka).missing.isEmpty());
        t.auditAll(kafka).assertExactlyOnce();
    }

    private static int membersWithPartitions(Admin admin, String group) throws Exception {
        return (int) admin.describeConsumerGroups(List.of(group)).all().get().get(group).members().stream()
                .filter(m -> !m.assignment().topicPartitions().isEmpty())
                .count();
    }

    /**
     * Waits at most {@code atMost} until all of {@code load} is produced and the group committed the end of the
     * input, checks that {@code last} is still running, and stops it.
     */
    private static void catchUpAndStop(
            KafkaTestCluster kafka, Topics t, LoadProducer load, ChildPipeline last, Duration atMost) {
        await().atMost(atMost)
                .pollInterval(Duration.ofMillis(200))
                .until(() -> load.done() && Delivery.caughtUp(kafka, t.group, t.input));
        assertThat(last.isAlive()).as("still running:%n%s", last.tail()).isTrue();
        last.stopWithin(Duration.ofSeconds(25));
    }

    private static void awaitCommitted(KafkaTestCluster kafka, String group, long total) {
        await().atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> kafka.committedTotal(group) >= total);
    }

    // ---- helpers ---------------------------------------------------------------------------------------------

    private static Topics topics(KafkaTestCluster kafka, String prefix, int orders) {
        Topics t = new Topics(Delivery.unique(prefix), orders);
        kafka.createTopic(t.input, PARTITIONS);
        t.branches.values().forEach(topic -> kafka.createTopic(topic, PARTITIONS));
        kafka.createTopic(t.deadLetters, 1);
        return t;
    }

    /**
     * The topics of one test, the input, one per branch of the split and the dead-letter topic, and how many
     * orders it produces.
     */
    private static final class Topics {
        final String uid;
        final int orders;
        final String input;
        final String group;
        final String deadLetters;
        final Map<String, String> branches = new LinkedHashMap<>();

        Topics(String uid, int orders) {
            this.uid = uid;
            this.orders = orders;
            this.input = "in-" + uid;
            this.group = "group-" + uid;
            this.deadLetters = "dlq-" + uid;
            for (String b : BRANCHES) {
                branches.put(b, b + "-" + uid);
            }
        }

        PipelineYaml yaml(KafkaTestCluster kafka) {
            PipelineYaml y = PipelineYaml.of(uid, kafka.bootstrapServers(), input, group)
                    .pipeline("delivery", "exactly_once")
                    .pipeline("on_error", "dead_letter")
                    .deadLetter(deadLetters)
                    .sessionTimeout("6s")
                    .pool(4, 4, 500, "5ms")
                    .checkpoint("100ms", "10s");
            branches.forEach(y::sink);
            return y;
        }

        /** Where order {@code i} must end up: a branch topic, the dead-letter topic, or nowhere (null). */
        String expectedTopic(int i) {
            if (Orders.isTest(i)) {
                return null;
            }
            return Pipelines.isRejected(i) ? deadLetters : branches.get(Orders.branch(i));
        }

        /** {@link #audit(KafkaTestCluster, List)} of every order the test produces. */
        Audit auditAll(KafkaTestCluster kafka) {
            List<Integer> all = new ArrayList<>(orders);
            for (int i = 0; i < orders; i++) {
                all.add(i);
            }
            return audit(kafka, all);
        }

        /** Reads every output topic {@code read_committed} and compares it with where {@code expected} belong. */
        Audit audit(KafkaTestCluster kafka, List<Integer> expected) {
            Map<String, String> want = new HashMap<>();
            for (int i : expected) {
                String topic = expectedTopic(i);
                if (topic != null) {
                    want.put(Orders.id(i), topic);
                }
            }
            Audit audit = new Audit();
            Map<String, Integer> seen = new HashMap<>();
            List<String> outputs = new ArrayList<>(branches.values());
            outputs.add(deadLetters);
            for (String topic : outputs) {
                for (TestRecord r : kafka.readAll(topic)) {
                    String id = Orders.idOf(r);
                    audit.read++;
                    if (seen.merge(id, 1, Integer::sum) > 1) {
                        audit.duplicates.add(id + " (again in " + topic + ")");
                    }
                    String where = want.get(id);
                    if (where == null) {
                        audit.unexpected.add(id + " in " + topic);
                    } else if (!where.equals(topic)) {
                        audit.misplaced.add(id + " in " + topic + " instead of " + where);
                    }
                }
            }
            want.keySet().stream().filter(id -> !seen.containsKey(id)).forEach(audit.missing::add);
            audit.expected = want.size();
            System.out.printf(
                    "exactly-once audit: %d expected, %d read, %d missing, %d duplicates%n",
                    audit.expected, audit.read, audit.missing.size(), audit.duplicates.size());
            return audit;
        }
    }

    /** What a read-committed audit of the outputs found. */
    private static final class Audit {
        int expected;
        int read;
        final List<String> missing = new ArrayList<>();
        final List<String> duplicates = new ArrayList<>();
        final List<String> misplaced = new ArrayList<>();
        final List<String> unexpected = new ArrayList<>();

        void assertExactlyOnce() {
            assertThat(expected).as("orders the audit expects").isPositive();
            assertThat(missing).as("expected orders missing from the outputs").isEmpty();
            assertThat(duplicates).as("orders written more than once").isEmpty();
            assertThat(misplaced).as("orders in the wrong topic").isEmpty();
            assertThat(unexpected)
                    .as("outputs of orders that must not be there")
                    .isEmpty();
        }
    }
}
