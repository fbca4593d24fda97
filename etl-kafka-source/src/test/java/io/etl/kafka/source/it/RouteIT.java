package io.etl.kafka.source.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.core.Pipeline;
import io.etl.core.PipelineResult;
import io.etl.core.RunningPipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.core.error.DeadLetter;
import io.etl.core.error.RecordException;
import io.etl.core.metrics.EtlMetrics;
import io.etl.testkit.EmbeddedKafka;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.TestRecord;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The route terminal against a real broker: topics opened (and created) on first use from one template section, a
 * topic outside the allowed pattern dead-lettered, nothing lost across a SIGKILL, exactly once across one, and the
 * bound on open topics with its per-topic meters.
 */
@EmbeddedKafka(shared = true)
class RouteIT {

    private static final int PARTITIONS = 2;
    /** Regions the route may write; {@code mars} orders name a topic outside the pattern. */
    private static final Set<String> ALLOWED = Set.of("eu", "us", "apac");

    @RegisterExtension
    final ChildPipelines children = new ChildPipelines();

    @Test
    @Timeout(150)
    void routesEveryOrderToATopicCreatedOnDemandAndDeadLettersTheOnesOutsideThePatternAcrossASigkill(
            KafkaTestCluster kafka, @TempDir Path dir) throws Exception {
        Run run = new Run(kafka, "route-kill", 12_000);
        Path yaml = run.yaml(kafka).groupInstanceId("route-kill-instance").write(dir);

        children.start("route", yaml, run.uid + "-0");
        children.awaitWhileRunning(
                Duration.ofSeconds(60),
                Duration.ofMillis(50),
                current -> kafka.committedTotal(run.group) >= run.orders / 8);
        children.last().kill9();
        long atKill = kafka.committedTotal(run.group);
        assertThat(atKill).as("killed mid-run").isLessThan(run.orders);
        System.out.printf("route kill test: SIGKILL at committed total %d of %d%n", atKill, run.orders);
        children.start("route", yaml, run.uid + "-1");
        children.awaitWhileRunning(
                Duration.ofSeconds(90),
                Duration.ofMillis(200),
                current -> Delivery.caughtUp(kafka, run.group, run.input));
        children.last().stopWithin(Duration.ofSeconds(30));

        Audit audit = run.audit(kafka);
        assertThat(audit.missing).as("orders missing from their topic").isEmpty();
        assertThat(audit.misplaced).as("orders in another topic").isEmpty();
        try (Admin admin = kafka.newAdmin()) {
            Map<String, TopicDescription> created =
                    admin.describeTopics(run.allowedTopics()).allTopicNames().get();
            created.values()
                    .forEach(t -> assertThat(t.partitions())
                            .as("partitions of %s, created on demand", t.name())
                            .hasSize(PARTITIONS));
            assertThat(admin.listTopics().names().get()).doesNotContain(Pipelines.routedTopic(run.uid, "mars"));
        }
        TestRecord letter = kafka.readAll(run.deadLetters).get(0);
        assertThat(letter.headerAsString(DeadLetter.STAGE_HEADER)).isEqualTo(DeadLetter.encodeStage("by-region"));
        assertThat(letter.headerAsString(DeadLetter.ERROR_HEADER)).contains("is not allowed");
        System.out.printf("route kill test: %d duplicates over %d outputs%n", audit.duplicates.size(), audit.read);
    }

    @Test
    @Timeout(150)
    void writesEveryOrderExactlyOnceToItsRoutedTopicAcrossASigkill(KafkaTestCluster kafka, @TempDir Path dir) {
        Run run = new Run(kafka, "route-eos", 10_000);
        Path yaml = run.yaml(kafka)
                .pipeline("delivery", "exactly_once")
                .groupInstanceId("route-eos-instance")
                .write(dir);
        try (LoadProducer load = LoadProducer.start(kafka, run.input, PARTITIONS, run.orders, 4_000)) {
            children.start("route", yaml, run.uid + "-0");
            children.awaitWhileRunning(
                    Duration.ofSeconds(60),
                    Duration.ofMillis(50),
                    current -> kafka.committedTotal(run.group) >= run.orders / 4);
            children.last().kill9();
            System.out.printf(
                    "route exactly-once test: SIGKILL at committed total %d, produced %d%n",
                    kafka.committedTotal(run.group), load.sent());
            children.start("route", yaml, run.uid + "-1");
            children.awaitWhileRunning(
                    Duration.ofSeconds(90),
                    Duration.ofMillis(200),
                    current -> load.done() && Delivery.caughtUp(kafka, run.group, run.input));
        }
        children.last().stopOnceAssigned();
        Audit audit = run.audit(kafka);
        assertThat(audit.missing).as("orders missing from their topic").isEmpty();
        assertThat(audit.duplicates).as("orders written more than once").isEmpty();
        assertThat(audit.misplaced).as("orders in another topic").isEmpty();
    }

    @Test
    @Timeout(60)
    void boundsItsOpenTopicsCountsEachTopicAndRefusesMissingTopicsUnderTheSinksPolicy(KafkaTestCluster kafka) {
        String uid = Delivery.unique("route-bound");
        String input = "in-" + uid;
        kafka.createTopic(input, 1);
        // eu and us exist; apac is allowed but missing (no create settings); mars is the third allowed topic
        for (String region : List.of("eu", "us", "mars")) {
            kafka.createTopic(Pipelines.routedTopic(uid, region), 1);
        }
        int orders = 400;
        kafka.produce(input, orders, Orders::record);
        PipelineConfig config = PipelineYaml.of(uid, kafka.bootstrapServers(), input, "group-" + uid)
                .routeTemplate("regions", "{topic_pattern: \"routed-" + uid + "-[a-z]+\", max_topics: 2}")
                .eachSink("on_error", "skip")
                .parse();
        Pipeline pipeline = Pipelines.route(config);
        MeterRegistry registry = new SimpleMeterRegistry();
        RunningPipeline running = pipeline.start(config, registry);
        PipelineResult result =
                Delivery.runUntilCaughtUp(kafka, running, "group-" + uid, input, Duration.ofSeconds(40));
        assertThat(result.status()).as("%s", result).isEqualTo(PipelineResult.Status.COMPLETED);

        Map<String, Integer> expected = new HashMap<>();
        for (int i = 0; i < orders; i++) {
            expected.merge(Orders.region(i), 1, Integer::sum);
        }
        // the first two regions of the input open the two topics; the third existing one is one too many
        assertThat(kafka.readAll(Pipelines.routedTopic(uid, "eu"))).hasSize(expected.get("eu"));
        assertThat(kafka.readAll(Pipelines.routedTopic(uid, "us"))).hasSize(expected.get("us"));
        assertThat(kafka.readAll(Pipelines.routedTopic(uid, "mars"))).isEmpty();
        assertThat(routed(registry, uid, "eu")).isEqualTo(expected.get("eu").doubleValue());
        assertThat(routed(registry, uid, "us")).isEqualTo(expected.get("us").doubleValue());
        assertThat(registry.get(EtlMetrics.ROUTE_TOPICS).gauge().value()).isEqualTo(2.0);
        double dropped = registry.get(EtlMetrics.RECORDS_DROPPED)
                .tag(EtlMetrics.TAG_STAGE, "by-region")
                .tag(EtlMetrics.TAG_REASON, RecordException.ROUTE)
                .counter()
                .count();
        assertThat(dropped).isEqualTo((double) (expected.get("apac") + expected.get("mars")));
    }

    private static double routed(MeterRegistry registry, String uid, String region) {
        Counter counter = registry.get(EtlMetrics.ROUTE_RECORDS)
                .tag(EtlMetrics.TAG_TOPIC, Pipelines.routedTopic(uid, region))
                .counter();
        return counter.count();
    }

    /** The topics of one test and where each order must end up. */
    private static final class Run {
        final String uid;
        final int orders;
        final String input;
        final String group;
        final String deadLetters;

        Run(KafkaTestCluster kafka, String prefix, int orders) {
            this.uid = Delivery.unique(prefix);
            this.orders = orders;
            this.input = "in-" + uid;
            this.group = "group-" + uid;
            this.deadLetters = "dlq-" + uid;
            kafka.createTopic(input, PARTITIONS);
            kafka.createTopic(deadLetters, 1);
            if (!prefix.endsWith("eos")) {
                kafka.produce(input, orders, i -> Orders.record(i).toPartition(i % PARTITIONS));
            }
        }

        PipelineYaml yaml(KafkaTestCluster kafka) {
            return PipelineYaml.of(uid, kafka.bootstrapServers(), input, group)
                    .routeTemplate(
                            "regions",
                            "{topic_pattern: \"routed-" + uid + "-(eu|us|apac)\", create: {partitions: " + PARTITIONS
                                    + "}}")
                    .deadLetter(deadLetters)
                    .eachSink("on_error", "dead_letter")
                    .sessionTimeout("6s")
                    .pool(4, 4, 500, "5ms")
                    .checkpoint("100ms", "10s");
        }

        List<String> allowedTopics() {
            return ALLOWED.stream().map(r -> Pipelines.routedTopic(uid, r)).toList();
        }

        /** Where order {@code i} must be: its region's topic, or the dead-letter topic for a region not allowed. */
        String expectedTopic(int i) {
            String region = Orders.region(i);
            return ALLOWED.contains(region) ? Pipelines.routedTopic(uid, region) : deadLetters;
        }

        Audit audit(KafkaTestCluster kafka) {
            Audit audit = new Audit();
            Map<String, Integer> seen = new HashMap<>();
            List<String> outputs = new ArrayList<>(allowedTopics());
            outputs.add(deadLetters);
            for (String topic : outputs) {
                for (TestRecord r : kafka.readAll(topic)) {
                    String id = Orders.idOf(r);
                    audit.read++;
                    if (seen.merge(id, 1, Integer::sum) > 1) {
                        audit.duplicates.add(id);
                    }
                    String want = expectedTopic(Integer.parseInt(id.substring(2)));
                    if (!want.equals(topic)) {
                        audit.misplaced.add(id + " in " + topic + " instead of " + want);
                    }
                }
            }
            for (int i = 0; i < orders; i++) {
                if (!seen.containsKey(Orders.id(i))) {
                    audit.missing.add(Orders.id(i));
                }
            }
            return audit;
        }
    }

    /** What reading the routed topics and the dead-letter topic found. */
    private static final class Audit {
        int read;
        final List<String> missing = new ArrayList<>();
        final List<String> duplicates = new ArrayList<>();
        final List<String> misplaced = new ArrayList<>();
    }
}
