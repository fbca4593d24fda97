package io.etl.kafka.source.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etl.core.Pipeline;
import io.etl.core.PipelineResult;
import io.etl.core.RunningPipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.core.error.ConfigException;
import io.etl.core.record.RecordMeta;
import io.etl.core.source.PartitionListener;
import io.etl.core.source.Source;
import io.etl.core.source.SourceContext;
import io.etl.core.source.SourceOutput;
import io.etl.core.source.SourcePartition;
import io.etl.kafka.source.KafkaSource;
import io.etl.testkit.EmbeddedKafka;
import io.etl.testkit.KafkaTestCluster;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The source on its own against the shared broker: startup checks and the KIP-848 group protocol. */
@EmbeddedKafka(shared = true)
class KafkaSourceIT {

    private static PipelineConfig source(String brokers, String topic, String group, String extra) {
        return PipelineConfig.parse("""
                source:
                  in:
                    kafka:
                      brokers: "%s"
                      topics: [%s]
                      group_id: %s
                      startup_timeout: 3s
                %s
                checkpoint: {interval: 200ms, drain_timeout: 10s}
                """.formatted(brokers, topic, group, extra.indent(6)), n -> null);
    }

    private static PipelineResult runToFailure(PipelineConfig config) {
        RunningPipeline running = Pipeline.named("check")
                .from(KafkaSource.from(config.source("in")).string())
                .to(new CollectingSink<>())
                .start(config, new SimpleMeterRegistry());
        return running.result().orTimeout(30, TimeUnit.SECONDS).join();
    }

    @Test
    @Timeout(30)
    void failsFastNamingTheBrokersWhenNothingAnswers() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        long started = System.nanoTime();

        PipelineResult result = runToFailure(source("127.0.0.1:" + port, "t", "g", ""));

        assertThat(result.status()).isEqualTo(PipelineResult.Status.FAILED);
        assertThat(result.failure())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("source.in.kafka")
                .hasMessageContaining("127.0.0.1:" + port);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(15));
    }

    @Test
    @Timeout(30)
    void failsFastWhenATopicIsMissing(KafkaTestCluster kafka) {
        String missing = Delivery.unique("missing");

        PipelineResult result = runToFailure(source(kafka.bootstrapServers(), missing, Delivery.unique("g"), ""));

        assertThat(result.status()).isEqualTo(PipelineResult.Status.FAILED);
        assertThat(result.failure())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("source.in.kafka.topics")
                .hasMessageContaining(missing)
                .hasMessageContaining("not found");
    }

    /**
     * A commit's outcome does not wait until the consumer has used up what it fetched. With the classic
     * protocol a poll that still holds fetched records does not read the connection at all, so the pipeline
     * asks the source to complete commits between polls; here no poll follows the commit.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"classic", "consumer"})
    @Timeout(60)
    void completesAnAsynchronousCommitWithoutAnotherPoll(String protocol, KafkaTestCluster kafka) {
        String topic = Delivery.unique("complete-commits");
        String group = Delivery.unique("g");
        kafka.createTopic(topic, 1);
        kafka.produce(topic, 20_000, Orders::record);
        PipelineConfig config = source(
                kafka.bootstrapServers(),
                topic,
                group,
                "max_poll_records: 10\nconsumer: {group.protocol: " + protocol + "}");
        Source<String> source = KafkaSource.from(config.source("in")).string();
        OffsetsOutput output = new OffsetsOutput();
        List<Long> offsets = output.offsets;
        source.open(new SourceContext("p", new KeepsEveryPartition(), new SimpleMeterRegistry()));
        try {
            pollUntilRecords(source, output);
            long next = offsets.get(offsets.size() - 1) + 1;
            SourcePartition partition = new SourcePartition(topic, 0);
            List<Map<SourcePartition, Long>> confirmed = new ArrayList<>();
            source.commit(Map.of(partition, next), false, (stored, error) -> {
                assertThat(error).as("commit error").isNull();
                confirmed.add(stored);
            });

            await().atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(10))
                    .until(() -> {
                        source.completeCommits();
                        return !confirmed.isEmpty();
                    });
            assertThat(confirmed).containsExactly(Map.of(partition, next));
            assertThat(offsets).as("records handed out").hasSizeLessThanOrEqualTo(10);
            assertThat(kafka.committedOffsets(group)).containsEntry(new TopicPartition(topic, 0), next);
        } finally {
            source.close(Duration.ofSeconds(5));
        }
    }

    /**
     * The final commit is made while the source is rejoining its group (another member joined and a third has not
     * rejoined yet), which the client refuses as rebalancing: the source takes part in the rebalance and commits
     * what it still holds once the group is stable, instead of failing the stop.
     */
    @Test
    @Timeout(90)
    void aCommitMadeWhileTheSourceRejoinsWaitsForTheRebalanceAndCommitsWhatItStillHolds(KafkaTestCluster kafka)
            throws Exception {
        String topic = Delivery.unique("commit-rebalance");
        String group = Delivery.unique("g");
        kafka.createTopic(topic, 1);
        kafka.produce(topic, 100, Orders::record);
        PipelineConfig config = source(
                kafka.bootstrapServers(),
                topic,
                group,
                "consumer: {group.protocol: classic, heartbeat.interval.ms: 100}");
        Source<String> source = KafkaSource.from(config.source("in")).string();
        OffsetsOutput output = new OffsetsOutput();
        List<Long> offsets = output.offsets;
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        source.open(new SourceContext("p", new KeepsEveryPartition(), meters));
        ExecutorService members = Executors.newFixedThreadPool(2);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()));
                // stops polling once it has joined; it leaves the group when its poll interval is over
                KafkaConsumer<byte[], byte[]> idle = member(kafka, group, 6_000);
                KafkaConsumer<byte[], byte[]> late = member(kafka, group, 30_000)) {
            pollUntilRecords(source, output);
            long next = offsets.get(offsets.size() - 1) + 1;
            Future<?> idleJoined = members.submit(() -> pollUntilAssigned(idle, topic));
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                source.poll(Duration.ofMillis(100), output);
                return idleJoined.isDone();
            });
            idleJoined.get();

            // the late member's join starts a rebalance that waits for the idle member until it leaves
            Future<?> lateJoined = members.submit(() -> pollUntilAssigned(late, topic));
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> groupState(admin, group) == GroupState.PREPARING_REBALANCE);
            // a heartbeat answered after that tells the source to rejoin, which its next polls do
            double heartbeats = heartbeats(meters);
            await().atMost(Duration.ofSeconds(10)).until(() -> {
                source.poll(Duration.ofMillis(100), output);
                return heartbeats(meters) > heartbeats;
            });
            for (int i = 0; i < 3; i++) {
                source.poll(Duration.ofMillis(100), output);
            }

            List<Map<SourcePartition, Long>> stored = new ArrayList<>();
            List<Throwable> errors = new ArrayList<>();
            source.commit(Map.of(new SourcePartition(topic, 0), next), true, (committed, error) -> {
                stored.add(committed);
                if (error != null) {
                    errors.add(error);
                }
            });
            GroupState afterCommit = groupState(admin, group);
            lateJoined.get(30, TimeUnit.SECONDS);

            assertThat(errors).as("commit errors").isEmpty();
            assertThat(afterCommit)
                    .as("the commit returned once the rebalance was over")
                    .isEqualTo(GroupState.STABLE);
            assertThat(stored).containsExactly(Map.of(new SourcePartition(topic, 0), next));
            assertThat(kafka.committedOffsets(group)).containsEntry(new TopicPartition(topic, 0), next);
        } finally {
            members.shutdownNow();
            source.close(Duration.ofSeconds(5));
        }
    }

    private static KafkaConsumer<byte[], byte[]> member(KafkaTestCluster kafka, String group, int maxPollIntervalMs) {
        return new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                kafka.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG,
                group,
                ConsumerConfig.GROUP_PROTOCOL_CONFIG,
                "classic",
                ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG,
                CooperativeStickyAssignor.class.getName(),
                ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG,
                maxPollIntervalMs,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                ByteArrayDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                ByteArrayDeserializer.class));
    }

    /** Subscribes and polls until the consumer's first rebalance is over (it may be given no partition). */
    private static void pollUntilAssigned(KafkaConsumer<byte[], byte[]> consumer, String topic) {
        CountDownLatch assigned = new CountDownLatch(1);
        consumer.subscribe(List.of(topic), new ConsumerRebalanceListener() {
            @Override
            public void onPartitionsRevoked(Collection<TopicPartition> partitions) {}

            @Override
            public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                assigned.countDown();
            }
        });
        while (assigned.getCount() > 0) {
            consumer.poll(Duration.ofMillis(100));
        }
    }

    private static GroupState groupState(Admin admin, String group) throws Exception {
        return admin.describeConsumerGroups(List.of(group))
                .all()
                .get()
                .get(group)
                .groupState();
    }

    /** Heartbeat responses the source's consumer has had. */
    private static double heartbeats(SimpleMeterRegistry meters) {
        return meters.get("etl.kafka.source.coordinator.heartbeat.total")
                .functionCounter()
                .count();
    }

    /** Keeps the offsets of the records a source hands out; a record it cannot decode fails the test. */
    private static final class OffsetsOutput implements SourceOutput<String> {
        final List<Long> offsets = new ArrayList<>();

        @Override
        public void emit(String value, RecordMeta meta) {
            offsets.add(meta.offset());
        }

        @Override
        public void decodeFailed(RecordMeta meta, Throwable cause) {
            throw new AssertionError("undecodable record at " + meta.offset(), cause);
        }
    }

    /** Polls {@code source} until it has handed out a record. */
    private static void pollUntilRecords(Source<String> source, OffsetsOutput output) {
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            source.poll(Duration.ofMillis(100), output);
            return !output.offsets.isEmpty();
        });
    }

    /** Takes whatever the group assigns and commits nothing of its own when partitions go. */
    private static final class KeepsEveryPartition implements PartitionListener {
        @Override
        public void onAssigned(Collection<SourcePartition> partitions) {}

        @Override
        public Map<SourcePartition, Long> onRevoked(Collection<SourcePartition> partitions, Duration waitUpTo) {
            return Map.of();
        }

        @Override
        public void onLost(Collection<SourcePartition> partitions) {}
    }

    @Test
    @Timeout(60)
    void consumesAndCommitsWithTheConsumerGroupProtocol(KafkaTestCluster kafka) {
        String topic = Delivery.unique("kip848");
        String group = Delivery.unique("g");
        kafka.createTopic(topic, 3);
        kafka.produce(topic, 3_000, Orders::record);
        PipelineConfig config = source(kafka.bootstrapServers(), topic, group, "consumer: {group.protocol: consumer}");
        CollectingSink<String> sink = new CollectingSink<>();

        RunningPipeline running = Pipeline.named("kip848")
                .from(KafkaSource.from(config.source("in")).string())
                .to(sink)
                .start(config, new SimpleMeterRegistry());
        PipelineResult result = Delivery.runUntilCaughtUp(kafka, running, group, topic, Duration.ofSeconds(40));

        assertThat(result.status()).as("result %s", result).isEqualTo(PipelineResult.Status.COMPLETED);
        Set<String> ids = new HashSet<>();
        sink.received.forEach(json -> ids.add(json.substring(7, json.indexOf('"', 7))));
        assertThat(ids).hasSize(3_000).contains(Orders.id(0), Orders.id(2_999));
        assertThat(kafka.committedOffsets(group)).isEqualTo(kafka.endOffsets(topic));
        try (var admin = kafka.newAdmin()) {
            var description = admin.describeConsumerGroups(Set.of(group))
                    .all()
                    .get(10, TimeUnit.SECONDS)
                    .get(group);
            assertThat(description.type().toString()).isEqualToIgnoringCase("consumer");
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    @Timeout(60)
    void bindsTheConsumersOwnMetricsAsTheDocumentedEtlKafkaSourceFamily(KafkaTestCluster kafka) throws Exception {
        String topic = Delivery.unique("metrics");
        String group = Delivery.unique("g");
        kafka.createTopic(topic, 2);
        kafka.produce(topic, 200, Orders::record);
        PipelineConfig config = source(kafka.bootstrapServers(), topic, group, "statistics_interval: 200ms");
        SimpleMeterRegistry registry = new SimpleMeterRegistry();

        RunningPipeline running = Pipeline.named("metered")
                .from(KafkaSource.from(config.source("in")).string())
                .to(new CollectingSink<>())
                .start(config, registry);
        try {
            await().atMost(Duration.ofSeconds(40))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> Delivery.caughtUp(kafka, group, topic)
                            && registry.find("etl.kafka.source.fetch.manager.records.lag")
                                            .tag("topic", topic)
                                            .meters()
                                            .size()
                                    == 2);
            for (String partition : List.of("0", "1")) {
                Meter.Id lag = registry.get("etl.kafka.source.fetch.manager.records.lag")
                        .tag("topic", topic)
                        .tag("partition", partition)
                        .gauge()
                        .getId();
                assertThat(lag.getTag("pipeline")).isEqualTo("metered");
                assertThat(lag.getTag("source")).isEqualTo("in");
                assertThat(lag.getTag("client.id")).isNotBlank();
                assertThat(registry.get("etl.kafka.source.fetch.manager.records.lead")
                                .tag("topic", topic)
                                .tag("partition", partition)
                                .gauge()
                                .value())
                        .isGreaterThanOrEqualTo(0);
            }
            assertThat(registry.get("etl.kafka.source.fetch.manager.records.consumed.total")
                            .tag("source", "in")
                            .functionCounter()
                            .count())
                    .isGreaterThanOrEqualTo(200);
            assertThat(registry.getMeters()).noneMatch(m -> m.getId().getName().startsWith("kafka.consumer."));

            // every etl_kafka_source_* name docs/metrics.md gives is a meter the running source has
            String doc = Files.readString(Path.of("..", "docs", "metrics.md"));
            Set<String> documented = new TreeSet<>();
            Matcher m = Pattern.compile(
                            "`(etl_kafka_source_fetch_manager_[a-z_]+|etl_kafka_source_coordinator_[a-z_]+)`")
                    .matcher(doc);
            while (m.find()) {
                documented.add(m.group(1));
            }
            assertThat(documented).hasSizeGreaterThan(5);
            Set<String> registered = new TreeSet<>();
            registry.getMeters()
                    .forEach(meter -> registered.add(meter.getId().getName().replace('.', '_')));
            assertThat(registered).containsAll(documented);
        } finally {
            running.stopAndWait(Duration.ofSeconds(20));
        }
        assertThat(registry.find("etl.kafka.source.fetch.manager.records.lag").meters())
                .isEmpty();
    }
}
