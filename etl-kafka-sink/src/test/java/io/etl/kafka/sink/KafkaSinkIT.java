package io.etl.kafka.sink;

import static io.etl.kafka.sink.SinkIts.runToEnd;
import static io.etl.kafka.sink.SinkIts.unique;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etl.core.Pipeline;
import io.etl.core.PipelineResult;
import io.etl.core.RunningPipeline;
import io.etl.core.config.DataSize;
import io.etl.core.config.SinkPoolConfig;
import io.etl.core.error.ConfigException;
import io.etl.core.error.ErrorPolicy;
import io.etl.core.error.RecordException;
import io.etl.core.metrics.EtlMetrics;
import io.etl.core.record.Header;
import io.etl.core.sink.Sink;
import io.etl.testkit.EmbeddedKafka;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.TestRecord;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;

@EmbeddedKafka(shared = true, brokerProperties = "auto.create.topics.enable=false")
class KafkaSinkIT {

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static KafkaSinkConfig config(KafkaTestCluster kafka, String topic) {
        return KafkaSinkConfig.custom()
                .brokers(kafka.bootstrapServers())
                .topic(topic)
                .build();
    }

    private static String topic(KafkaTestCluster kafka) {
        String t = unique("out");
        kafka.createTopic(t, 1);
        return t;
    }

    @Test
    void bytesEncoderWritesPayloadWithSourceKeyAndHeaders(KafkaTestCluster kafka) {
        String topic = topic(kafka);
        ListSource<byte[]> source = new ListSource<>(
                "in",
                List.of(
                        new ListSource.Entry<>(utf8("k1"), utf8("v1"), List.of(Header.of("trace", "t1"))),
                        new ListSource.Entry<>(null, new byte[0], List.of()),
                        new ListSource.Entry<>(utf8("k3"), null, List.of())));
        PipelineResult result = runToEnd(
                source, KafkaSink.from("out", config(kafka, topic), null).bytes());

        assertThat(result.status()).isEqualTo(PipelineResult.Status.COMPLETED);
        List<TestRecord> out = kafka.readAll(topic);
        assertThat(out).hasSize(3);
        assertThat(out.get(0).keyAsString()).isEqualTo("k1");
        assertThat(out.get(0).valueAsString()).isEqualTo("v1");
        assertThat(out.get(0).headers()).containsOnlyKeys("trace");
        assertThat(out.get(0).headerAsString("trace")).isEqualTo("t1");
        assertThat(out.get(1).key()).isNull();
        assertThat(out.get(1).value()).isNotNull().isEmpty();
        assertThat(out.get(2).value()).as("tombstone").isNull();
        assertThat(source.committed()).containsEntry(source.partition(), 3L);
    }

    @Test
    void jsonEncodersWriteJsonKeyedBySourceOrByValue(KafkaTestCluster kafka) {
        String topic = topic(kafka);
        ListSource<Object> source = new ListSource<>(
                "in",
                List.of(new ListSource.Entry<>(
                        utf8("src-key"), Map.of("id", "o-1", "n", 1), List.of(Header.of("h", "x")))));
        runToEnd(
                source,
                KafkaSink.from("out", config(kafka, topic), null)
                        .idempotencyKeyHeader()
                        .json());
        String keyed = topic(kafka);
        ListSource<Map<String, Object>> source2 = ListSource.of("in", List.of(Map.of("id", "o-2")));
        runToEnd(
                source2, KafkaSink.from("out", config(kafka, keyed), null).<Map<String, Object>>json(v -> v.get("id")));

        TestRecord first = kafka.readAll(topic).get(0);
        assertThat(first.keyAsString()).isEqualTo("src-key");
        assertThat(first.valueAsString()).contains("\"id\":\"o-1\"", "\"n\":1");
        assertThat(first.headerAsString("h")).isEqualTo("x");
        assertThat(first.headerAsString(KafkaSink.IDEMPOTENCY_KEY_HEADER)).isEqualTo("in:0:0:0");
        TestRecord second = kafka.readAll(keyed).get(0);
        assertThat(second.keyAsString()).isEqualTo("o-2");
        assertThat(second.headers()).isEmpty();
    }

    @Test
    void customAndEnvelopeEncodersWriteTheirMessagesAndTombstones(KafkaTestCluster kafka) {
        String custom = topic(kafka);
        ListSource<String> source = ListSource.of("in", List.of("a", "", "b"));
        runToEnd(
                source,
                KafkaSink.from("out", config(kafka, custom), null)
                        .<String>with((v, meta) -> v.isEmpty()
                                ? KafkaMessage.builder().key("gone").tombstone().build()
                                : KafkaMessage.builder()
                                        .key(v)
                                        .header("len", Integer.toString(v.length()))
                                        .value("value-" + v)
                                        .build()));
        List<TestRecord> out = kafka.readAll(custom);
        assertThat(out).extracting(TestRecord::keyAsString).containsExactly("a", "gone", "b");
        assertThat(out).extracting(TestRecord::valueAsString).containsExactly("value-a", null, "value-b");
        assertThat(out.get(0).headers()).containsOnlyKeys("len");

        String envelope = topic(kafka);
        ListSource<Change<Map<String, Object>>> changes =
                ListSource.of("in", List.of(Change.upsert("42", Map.of("name", "plush")), Change.delete("42")));
        runToEnd(changes, KafkaSink.from("out", config(kafka, envelope), null).<Map<String, Object>>envelope());
        List<TestRecord> env = kafka.readAll(envelope);
        assertThat(env.get(0).keyAsString()).isEqualTo("42");
        assertThat(env.get(0).valueAsString())
                .contains(
                        "\"operation\":\"upsert\"",
                        "\"idempotencyKey\":\"in:0:0:0\"",
                        "\"document\":{\"name\":\"plush\"}",
                        "\"metadata\":{\"topic\":\"in\",\"partition\":0,\"offset\":0");
        assertThat(env.get(1).value()).isNull();
        assertThat(env.get(1).headerAsString(KafkaSink.OPERATION_HEADER)).isEqualTo("delete");
        assertThat(env.get(1).headerAsString(KafkaSink.SOURCE_HEADER)).isEqualTo("in-0@1");
        assertThat(env.get(1).headerAsString(KafkaSink.IDEMPOTENCY_KEY_HEADER)).isEqualTo("in:0:1:0");
    }

    @Test
    void oversizedRecordsAreSkippedAndCountedUnderSkip(KafkaTestCluster kafka) {
        String topic = topic(kafka);
        ListSource<byte[]> source = ListSource.of("in", List.of(new byte[10], new byte[200], new byte[20]));
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        PipelineResult result = runToEnd(
                source,
                KafkaSink.from("out", config(kafka, topic).withMaxMessageBytes(DataSize.ofBytes(100)), null)
                        .bytes(),
                registry);

        assertThat(result.status()).isEqualTo(PipelineResult.Status.COMPLETED);
        assertThat(kafka.readAll(topic)).extracting(r -> r.value().length).containsExactly(10, 20);
        assertThat(registry.get(EtlMetrics.RECORDS_DROPPED)
                        .tag(EtlMetrics.TAG_REASON, "oversized")
                        .counter()
                        .count())
                .isEqualTo(1.0);
        assertThat(source.committed()).containsEntry(source.partition(), 3L);
    }

    /**
     * Messages go to the producer as they are encoded. A producer buffer smaller than one message makes the client
     * refuse such a message inside {@code send}, and small produce batches fill the buffer now and then, so that the
     * rest of an open batch waits for room: the refused message is skipped under its policy, every other one is
     * written once, in order, and the input is committed to its end.
     */
    @Test
    void aMessageTheClientRefusesAsItIsHandedOverIsSkippedAndTheRestWrittenInOrder(KafkaTestCluster kafka) {
        String topic = topic(kafka);
        List<byte[]> values = new ArrayList<>();
        // the first batch's attempt opens with its first message: the second is refused while it is open
        IntStream.range(0, 400).forEach(i -> values.add(i == 1 || i == 250 ? new byte[5000] : utf8("v" + i)));
        ListSource<byte[]> source = ListSource.of("in", values);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        PipelineResult result = runToEnd(
                source,
                KafkaSink.from(
                                "out",
                                config(kafka, topic).withProducer(Map.of("buffer.memory", "4000", "batch.size", "600")),
                                null)
                        .bytes(),
                registry);

        assertThat(result.status()).as("result %s", result).isEqualTo(PipelineResult.Status.COMPLETED);
        List<String> expected = IntStream.range(0, 400)
                .filter(i -> i != 1 && i != 250)
                .mapToObj(i -> "v" + i)
                .toList();
        assertThat(kafka.readAll(topic)).extracting(TestRecord::valueAsString).containsExactlyElementsOf(expected);
        assertThat(registry.get(EtlMetrics.RECORDS_DROPPED)
                        .tag(EtlMetrics.TAG_REASON, RecordException.PRODUCE)
                        .counter()
                        .count())
                .isEqualTo(2.0);
        assertThat(source.committed()).containsEntry(source.partition(), 400L);
    }

    @Test
    void oversizedRecordStopsThePipelineUnderFailWithNothingAfterItCommitted(KafkaTestCluster kafka) {
        String topic = topic(kafka);
        List<byte[]> values = new ArrayList<>();
        IntStream.range(0, 50).forEach(i -> values.add(new byte[10]));
        values.add(new byte[200]);
        IntStream.range(0, 50).forEach(i -> values.add(new byte[10]));
        ListSource<byte[]> source = ListSource.of("in", values);
        RunningPipeline running = SinkIts.start(
                source,
                KafkaSink.from(
                                "out",
                                config(kafka, topic).withMaxMessageBytes(DataSize.ofBytes(100)),
                                SinkPoolConfig.defaults().withOnError(ErrorPolicy.FAIL))
                        .bytes(),
                new SimpleMeterRegistry());
        PipelineResult result = running.result().join();

        assertThat(result.status()).isEqualTo(PipelineResult.Status.FAILED);
        assertThat(result.failure()).hasMessageContaining("exceeds max_message_bytes 100");
        assertThat(source.committed().getOrDefault(source.partition(), 0L)).isLessThanOrEqualTo(50L);
        assertThat(running.committedOffsets().getOrDefault(source.partition(), 0L))
                .isLessThanOrEqualTo(50L);
    }

    @Test
    void producerThatKafkaClientsRefusesFailsAtStartupBeforeConsuming(KafkaTestCluster kafka) {
        String topic = topic(kafka);
        ListSource<byte[]> source = ListSource.of("in", List.of(new byte[1]));
        RunningPipeline running = SinkIts.start(
                source,
                KafkaSink.from(
                                "eu",
                                config(kafka, topic)
                                        .withProducer(Map.of("max.in.flight.requests.per.connection", "10")),
                                null)
                        .bytes(),
                new SimpleMeterRegistry());
        PipelineResult result = running.result().join();

        assertThat(result.status()).isEqualTo(PipelineResult.Status.FAILED);
        assertThat(result.failure())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("sinks.eu.kafka.producer.max.in.flight.requests.per.connection");
        // the source may have opened while the sink did, but nothing was read
        assertThat(source.polls).hasValue(0);
        assertThat(kafka.readAll(topic)).isEmpty();
    }

    @Test
    void missingTopicFailsFastNamingItAndCommitsNothing(KafkaTestCluster kafka) {
        String missing = unique("missing");
        ListSource<byte[]> source = ListSource.of("in", List.of(new byte[1]));
        long started = System.nanoTime();
        RunningPipeline running = SinkIts.start(
                source, KafkaSink.from("eu", config(kafka, missing), null).bytes(), new SimpleMeterRegistry());
        PipelineResult result = running.result().join();

        // detection takes milliseconds; the rest is the core's drain wait for shard workers that never started
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(15));
        assertThat(result.status()).isEqualTo(PipelineResult.Status.FAILED);
        assertThat(result.failure())
                .hasMessageContaining("sinks.eu.kafka.topic")
                .hasMessageContaining("'" + missing + "' does not exist");
        assertThat(source.polls).hasValue(0);
        assertThat(running.committedOffsets()).isEmpty();
    }

    @Test
    void listedTopicsAreCreatedWithPartitionsAndConfigsAndExistingOnesLeftAlone(KafkaTestCluster kafka)
            throws Exception {
        String created = unique("created");
        String existing = unique("existing");
        kafka.createTopic(existing, 2, -1, Map.of("retention.ms", "123456"));
        KafkaSinkConfig config = config(kafka, created)
                .withTopics(List.of(
                        TopicSpec.custom()
                                .name(created)
                                .partitions(3)
                                .replicationFactor(1)
                                .configs(Map.of("cleanup.policy", "compact", "retention.ms", "3600000"))
                                .build(),
                        TopicSpec.custom()
                                .name(existing)
                                .partitions(5)
                                .configs(Map.of("retention.ms", "999"))
                                .build()));
        ListSource<String> source = ListSource.of("in", List.of("k"));
        PipelineResult result = runToEnd(
                source,
                KafkaSink.from("out", config, null)
                        .<String>with(
                                (v, m) -> KafkaMessage.builder().key(v).value(v).build()));

        assertThat(result.status()).isEqualTo(PipelineResult.Status.COMPLETED);
        try (Admin admin = kafka.newAdmin()) {
            Map<String, TopicDescription> d = admin.describeTopics(List.of(created, existing))
                    .allTopicNames()
                    .get();
            assertThat(d.get(created).partitions()).hasSize(3);
            assertThat(d.get(existing).partitions()).hasSize(2);
            var configs = admin.describeConfigs(List.of(
                            new ConfigResource(ConfigResource.Type.TOPIC, created),
                            new ConfigResource(ConfigResource.Type.TOPIC, existing)))
                    .all()
                    .get();
            assertThat(configs.get(new ConfigResource(ConfigResource.Type.TOPIC, created))
                            .get("cleanup.policy")
                            .value())
                    .isEqualTo("compact");
            assertThat(configs.get(new ConfigResource(ConfigResource.Type.TOPIC, existing))
                            .get("retention.ms")
                            .value())
                    .isEqualTo("123456");
        }
        assertThat(kafka.readAll(created)).hasSize(1);
    }

    @Test
    void splitCommitsARecordOnlyWhenEveryBranchIsDurable(KafkaTestCluster kafka) {
        String eu = topic(kafka);
        String us = topic(kafka);
        String rest = topic(kafka);
        List<String> regions = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            regions.add(i % 3 == 0 ? "eu" : i % 3 == 1 ? "us" : "apac");
        }
        ListSource<String> source = ListSource.of("orders", regions);
        Sink<Object, KafkaMessage> euSink =
                KafkaSink.from("eu", config(kafka, eu), null).json();
        Sink<Object, KafkaMessage> usSink =
                KafkaSink.from("us", config(kafka, us), null).json();
        Sink<Object, KafkaMessage> restSink =
                KafkaSink.from("rest", config(kafka, rest), null).json();
        RunningPipeline running = Pipeline.named(unique("split"))
                .from(source)
                .split(
                        "by-region",
                        s -> s.branch("eu", "eu"::equals, euSink)
                                .branch("us", "us"::equals, usSink)
                                .otherwise(restSink))
                .start(SinkIts.CONFIG, new SimpleMeterRegistry());
        await().atMost(Duration.ofSeconds(60))
                .until(() -> running.committedOffsets().getOrDefault(source.partition(), -1L) == 3000L);
        PipelineResult result = running.stopAndWait(Duration.ofSeconds(30));

        assertThat(result.status()).isEqualTo(PipelineResult.Status.COMPLETED);
        assertThat(kafka.readAll(eu))
                .hasSize(1000)
                .allMatch(r -> r.valueAsString().equals("\"eu\""));
        assertThat(kafka.readAll(us))
                .hasSize(1000)
                .allMatch(r -> r.valueAsString().equals("\"us\""));
        assertThat(kafka.readAll(rest))
                .hasSize(1000)
                .allMatch(r -> r.valueAsString().equals("\"apac\""));
    }

    @Test
    void sinksWithIdenticalProducerSettingsShareOneProducer(KafkaTestCluster kafka) {
        String first = topic(kafka);
        String second = topic(kafka);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        List<String> values = IntStream.range(0, 100).mapToObj(i -> "v" + i).toList();
        ListSource<String> source = ListSource.of("in", values);
        var a = KafkaSink.from("a", config(kafka, first).withStatisticsInterval(Duration.ofMillis(100)), null)
                .json();
        var b = KafkaSink.from("b", config(kafka, second).withStatisticsInterval(Duration.ofMillis(100)), null)
                .json();
        RunningPipeline running = Pipeline.named(unique("shared"))
                .from(source)
                .split(
                        "halves",
                        s -> s.branch("a", v -> Integer.parseInt(v.substring(1)) % 2 == 0, a)
                                .otherwise(b))
                .start(SinkIts.CONFIG, registry);

        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(registry.find("etl.kafka.sink.record.send.total")
                                .functionCounters())
                        .as("one producer, so one set of producer meters")
                        .hasSize(1)
                        .allSatisfy(c -> assertThat(c.count()).isEqualTo(100.0)));
        running.stopAndWait(Duration.ofSeconds(30));
        assertThat(kafka.readAll(first)).hasSize(50);
        assertThat(kafka.readAll(second)).hasSize(50);
    }

    @Test
    void producerMetricsAppearAsEtlKafkaSinkMetersAndNotWhenDisabled(KafkaTestCluster kafka) {
        String topic = topic(kafka);
        SimpleMeterRegistry on = new SimpleMeterRegistry();
        ListSource<byte[]> source = ListSource.of("in", List.of(new byte[3]));
        RunningPipeline running = SinkIts.start(
                source,
                KafkaSink.from("out", config(kafka, topic).withStatisticsInterval(Duration.ofMillis(200)), null)
                        .bytes(),
                on);
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(on.find("etl.kafka.sink.record.send.total")
                                .tagKeys(EtlMetrics.TAG_PIPELINE, "client.id")
                                .functionCounters())
                        .isNotEmpty());
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(on.find("etl.kafka.sink.record.send.total")
                                .functionCounter()
                                .count())
                        .isEqualTo(1.0));
        assertThat(on.getMeters()).noneMatch(m -> m.getId().getName().startsWith("kafka."));
        running.stopAndWait(Duration.ofSeconds(30));
        assertThat(on.getMeters())
                .as("removed on close")
                .noneMatch(m -> m.getId().getName().startsWith("etl.kafka.sink."));

        SimpleMeterRegistry off = new SimpleMeterRegistry();
        ListSource<byte[]> source2 = ListSource.of("in", List.of(new byte[3]));
        runToEnd(
                source2,
                KafkaSink.from("out", config(kafka, topic).withStatisticsInterval(Duration.ZERO), null)
                        .bytes(),
                off);
        assertThat(off.getMeters())
                .extracting(m -> m.getId().getName())
                .isNotEmpty()
                .noneMatch(n -> n.startsWith("etl.kafka.sink.") || n.startsWith("kafka."));
        assertThat(off.getMeters()).extracting(m -> m.getId().getName()).contains(EtlMetrics.SINK_RECORDS);
    }
}
