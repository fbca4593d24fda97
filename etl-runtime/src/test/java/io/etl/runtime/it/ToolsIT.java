package io.etl.runtime.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etl.core.error.DeadLetter;
import io.etl.core.error.RecordException;
import io.etl.core.record.Header;
import io.etl.core.record.RecordMeta;
import io.etl.kafka.sink.DeadLetterRedrive;
import io.etl.runtime.ExitCodes;
import io.etl.runtime.it.CopyYaml.Section;
import io.etl.testkit.EmbeddedKafka;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.TestRecord;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command-line tools against a real broker, reaching it through a pipeline YAML as a user does: topics, produce,
 * consume, offsets and dead-letter redrive.
 */
@EmbeddedKafka(shared = true)
class ToolsIT {

    static KafkaTestCluster kafka;

    @TempDir
    Path dir;

    private Path config(CopyTopics t) {
        return CopyYaml.of(t.uid(), kafka.bootstrapServers(), t.input(), t.output())
                .with(Section.SOURCE, "on_error: dead_letter")
                .with(Section.TOP, """
                        dead_letter:
                          kafka:
                            brokers: "%s"
                            topic: dlq-%s
                        """.formatted(kafka.bootstrapServers(), t.uid()))
                .write(dir);
    }

    @Test
    void topicsCreateMakesThePipelinesMissingTopicsListAndDescribeShowThemAndDeleteNeedsExecute() {
        CopyTopics t = CopyTopics.random();
        kafka.createTopic(t.input(), 2);
        Path config = config(t);

        Tools.Result created = Tools.run("topics", "create", "--config", config.toString(), "--partitions", "3");

        assertThat(created.exit()).as("%s", created).isEqualTo(ExitCodes.OK);
        assertThat(created.out())
                .contains("exists: " + t.input())
                .contains("created: " + t.output() + " (3 partition(s))")
                .contains("created: dlq-" + t.uid() + " (3 partition(s))");
        assertThat(kafka.endOffsets(t.output())).hasSize(3);

        Tools.Result listed = Tools.run("topics", "list", "--config", config.toString());
        assertThat(listed.out()).containsPattern("(?m)^" + t.output() + " +3 +1$");

        kafka.produce(t.input(), List.of(TestRecord.of("k", "v")));
        Tools.Result described = Tools.run("topics", "describe", t.input(), "--config", config.toString());
        assertThat(described.exit()).as("%s", described).isEqualTo(ExitCodes.OK);
        assertThat(described.out())
                .contains("topic " + t.input() + ": 2 partition(s)")
                .containsPattern("(?m)^PARTITION +LEADER +REPLICAS +ISR +EARLIEST +LATEST$");

        Tools.Result dryRun = Tools.run("topics", "delete", t.output(), "--config", config.toString());
        assertThat(dryRun.out())
                .contains(
                        "would delete: " + t.output() + " (3 partition(s), 0 record(s))",
                        "dry run: nothing was deleted");
        assertThat(kafka.endOffsets(t.output())).hasSize(3);

        Tools.Result deleted =
                Tools.run("topics", "delete", t.output(), "--execute", "--brokers", kafka.bootstrapServers());
        assertThat(deleted.exit()).as("%s", deleted).isEqualTo(ExitCodes.OK);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> !Tools.run("topics", "list", "--brokers", kafka.bootstrapServers())
                        .out()
                        .contains(t.output()));
    }

    @Test
    void produceWritesLinesWithKeysAndHeadersAndConsumePrintsThemBack() throws Exception {
        CopyTopics t = CopyTopics.random();
        kafka.createTopic(t.input(), 1);
        Path lines = Files.writeString(dir.resolve("lines.txt"), """
                k1:{"id":1}

                k2:{"id":2}
                """);

        Tools.Result produced = Tools.run(
                "produce",
                t.input(),
                "--config",
                config(t).toString(),
                "--file",
                lines.toString(),
                "-K",
                ":",
                "-H",
                "source=tools",
                "--format",
                "json");

        assertThat(produced.exit()).as("%s", produced).isEqualTo(ExitCodes.OK);
        assertThat(produced.out()).contains("produced 2 record(s) to " + t.input());
        List<TestRecord> written = kafka.readAll(t.input());
        assertThat(written).extracting(TestRecord::keyAsString).containsExactly("k1", "k2");
        assertThat(written.get(1).valueAsString()).isEqualTo("{\"id\":2}");
        assertThat(written.get(0).headerAsString("source")).isEqualTo("tools");

        Tools.Result consumed =
                Tools.run("consume", t.input(), "--config", config(t).toString());
        assertThat(consumed.exit()).as("%s", consumed).isEqualTo(ExitCodes.OK);
        assertThat(consumed.out().lines().toList())
                .containsExactly(
                        t.input() + "-0@0  key=k1  headers={source=tools}  {\"id\":1}",
                        t.input() + "-0@1  key=k2  headers={source=tools}  {\"id\":2}");

        Tools.Result fromOffset =
                Tools.run("consume", t.input(), "--brokers", kafka.bootstrapServers(), "--offset", "1", "--value-only");
        assertThat(fromOffset.out().lines().toList()).containsExactly("{\"id\":2}");
    }

    @Test
    void aLineThatIsNotJsonStopsProduceNamingItAfterTheLinesBeforeIt() throws Exception {
        CopyTopics t = CopyTopics.random();
        kafka.createTopic(t.input(), 1);
        Path lines = Files.writeString(dir.resolve("bad.txt"), "{\"id\":1}\nnot json\n{\"id\":3}\n");

        Tools.Result produced = Tools.run(
                "produce",
                t.input(),
                "--brokers",
                kafka.bootstrapServers(),
                "--file",
                lines.toString(),
                "--format",
                "json");

        assertThat(produced.exit()).isEqualTo(ExitCodes.FAILED);
        assertThat(produced.err()).contains(lines + " line 2: not json:", "(1 record(s) before it written)");
        assertThat(kafka.readAll(t.input()))
                .extracting(TestRecord::valueAsString)
                .containsExactly("{\"id\":1}");
    }

    @Test
    void produceToAMissingTopicSaysHowToCreateIt() throws Exception {
        Path lines = Files.writeString(dir.resolve("one.txt"), "x\n");

        Tools.Result produced = Tools.run(
                "produce",
                "nowhere-" + CopyTopics.random().uid(),
                "--brokers",
                kafka.bootstrapServers(),
                "--file",
                lines.toString());

        assertThat(produced.exit()).isEqualTo(ExitCodes.FAILED);
        assertThat(produced.err()).contains("does not exist on " + kafka.bootstrapServers(), "topics create");
    }

    @Test
    void consumeFromATimeMaxAndPartitions() {
        CopyTopics t = CopyTopics.random();
        kafka.createTopic(t.input(), 2);
        kafka.produce(
                t.input(),
                List.of(
                        TestRecord.of("a", "early").toPartition(0),
                        TestRecord.of("b", "x").toPartition(1)));
        Instant between = Instant.now().plusMillis(50);
        await().until(() -> Instant.now().isAfter(between.plusMillis(50)));
        kafka.produce(t.input(), List.of(TestRecord.of("a", "late").toPartition(0)));

        Tools.Result late = Tools.run(
                "consume",
                t.input(),
                "--brokers",
                kafka.bootstrapServers(),
                "--from-time",
                between.toString(),
                "--value-only");
        Tools.Result one = Tools.run(
                "consume",
                t.input(),
                "--brokers",
                kafka.bootstrapServers(),
                "--partition",
                "0",
                "--max",
                "1",
                "--value-only");

        assertThat(late.out().lines().toList()).containsExactly("late");
        assertThat(one.out().lines().toList()).containsExactly("early");
    }

    @Test
    void offsetsShowAndResetWhichIsRefusedWhileTheGroupHasALiveMember() {
        CopyTopics t = CopyTopics.random();
        kafka.createTopic(t.input(), 2);
        kafka.produce(t.input(), 10, i -> TestRecord.of("k" + i, "v" + i));
        Path config = config(t);
        try (KafkaConsumer<byte[], byte[]> member = member(t.group())) {
            member.subscribe(List.of(t.input()));
            Map<TopicPartition, Long> written = kafka.endOffsets(t.input());
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                member.poll(Duration.ofMillis(100));
                return member.assignment().equals(written.keySet())
                        && written.keySet().stream().allMatch(tp -> member.position(tp) == written.get(tp));
            });
            member.commitSync();

            Tools.Result shown = Tools.run("offsets", "show", "--config", config.toString());
            assertThat(shown.exit()).as("%s", shown).isEqualTo(ExitCodes.OK);
            assertThat(shown.out()).contains("group " + t.group() + ": ", ", 1 member(s)", "total lag: 0");

            Tools.Result refused =
                    Tools.run("offsets", "reset", "--to-earliest", "--execute", "--config", config.toString());
            assertThat(refused.exit()).isEqualTo(ExitCodes.FAILED);
            assertThat(refused.err()).contains("has 1 live member(s)", "stop the pipeline first");
            assertThat(kafka.committedTotal(t.group())).isEqualTo(10);
        }

        Tools.Result dryRun = Tools.run("offsets", "reset", "--to-earliest", "--config", config.toString());
        assertThat(dryRun.out()).contains("would reset group " + t.group(), "dry run: nothing was changed");
        assertThat(kafka.committedTotal(t.group())).isEqualTo(10);

        Tools.Result reset = Tools.run("offsets", "reset", "--to-earliest", "--execute", "--config", config.toString());
        assertThat(reset.exit()).as("%s", reset).isEqualTo(ExitCodes.OK);
        assertThat(kafka.committedTotal(t.group())).isZero();

        Tools.Result shifted = Tools.run(
                "offsets",
                "reset",
                "--shift-by",
                "3",
                "--execute",
                "--group",
                t.group(),
                "--topic",
                t.input(),
                "--brokers",
                kafka.bootstrapServers());
        assertThat(shifted.exit()).as("%s", shifted).isEqualTo(ExitCodes.OK);
        Map<TopicPartition, Long> committed = kafka.committedOffsets(t.group());
        Map<TopicPartition, Long> ends = kafka.endOffsets(t.input());
        committed.forEach((tp, offset) -> assertThat(offset).isEqualTo(Math.min(3, ends.get(tp))));

        Tools.Result latest = Tools.run("offsets", "reset", "--to-latest", "--execute", "--config", config.toString());
        assertThat(latest.exit()).isEqualTo(ExitCodes.OK);
        assertThat(kafka.committedOffsets(t.group())).isEqualTo(ends);
    }

    @Test
    void deadLettersRedriveReadsTheDeadLetterSectionAndWritesOnlyWithExecute() {
        CopyTopics t = CopyTopics.random();
        String dlq = "dlq-" + t.uid();
        kafka.createTopic(t.input(), 1);
        kafka.createTopic(dlq, 1);
        kafka.produce(
                dlq,
                IntStream.range(0, 3)
                        .mapToObj(i -> letter(t.input(), i, i == 2 ? "operator:x" : "decode"))
                        .toList());
        Path config = config(t);

        Tools.Result plan = Tools.run("dead-letters", "redrive", "--config", config.toString(), "--stage", "decode");

        assertThat(plan.exit()).as("%s", plan).isEqualTo(ExitCodes.OK);
        assertThat(plan.out())
                .contains(dlq + "-0@0  stage=decode  reason=decode  -> " + t.input())
                .contains("read 3 dead letter(s) of " + dlq + ", 2 matching")
                .contains("would redrive 2: " + t.input() + " 2", "dry run: nothing was written");
        assertThat(kafka.endTotal(t.input())).isZero();

        Tools.Result done =
                Tools.run("dead-letters", "redrive", "--config", config.toString(), "--reason", "decode", "--execute");

        assertThat(done.exit()).as("%s", done).isEqualTo(ExitCodes.OK);
        assertThat(done.out()).contains("redrove 2: " + t.input() + " 2");
        assertThat(kafka.readAll(t.input()))
                .allSatisfy(r -> assertThat(r.headers())
                        .containsKey(DeadLetterRedrive.REDRIVEN_FROM_HEADER)
                        .doesNotContainKey(DeadLetter.STAGE_HEADER))
                .extracting(TestRecord::valueAsString)
                .containsExactly("value-0", "value-1");
    }

    @Test
    void anUnreachableClusterIsNamedWithinTheTimeout() {
        Tools.Result result = Tools.run("topics", "list", "--brokers", "127.0.0.1:1", "--timeout", "3s");

        assertThat(result.exit()).isEqualTo(ExitCodes.FAILED);
        assertThat(result.err()).startsWith("error: ").contains("127.0.0.1:1");
    }

    private static TestRecord letter(String topic, long offset, String stage) {
        RecordMeta meta = new RecordMeta(
                topic,
                0,
                offset,
                1L,
                ("k" + offset).getBytes(StandardCharsets.UTF_8),
                List.<Header>of(),
                ("value-" + offset).getBytes(StandardCharsets.UTF_8));
        String reason = stage.equals("decode") ? RecordException.DECODE : RecordException.OPERATOR;
        RecordException error = RecordException.at(meta, stage, reason, "bad", null);
        TestRecord record = TestRecord.of(meta.key(), meta.payload());
        for (Header h : new DeadLetter("copy", stage, meta, error, 1, 2L).headers()) {
            record = record.withHeader(h.key(), h.value());
        }
        return record;
    }

    private static KafkaConsumer<byte[], byte[]> member(String group) {
        Map<String, Object> props = new HashMap<>(kafka.clientProperties());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        return new KafkaConsumer<>(props);
    }
}
