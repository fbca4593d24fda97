package io.etl.kafka.source.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.core.error.DeadLetter;
import io.etl.kafka.source.it.DeadLetterOrders.Kind;
import io.etl.testkit.EmbeddedKafka;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.TestRecord;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pipeline JVM that dead-letters records at every stage is killed with SIGKILL mid-run and restarted: every
 * dead letter still reaches the dead-letter topic (duplicates allowed) and every good record the output.
 */
@EmbeddedKafka(shared = true)
class DeadLetterCrashIT {

    private static final int ORDERS = 30_000;
    private static final int PARTITIONS = 2;
    private static final Kind[] POISON = {Kind.MALFORMED, Kind.EXPLODE, Kind.BOOM, Kind.HUGE, Kind.NO_KEY};

    @RegisterExtension
    final ChildPipelines children = new ChildPipelines();

    private static Kind kind(int i) {
        return i % 50 == 17 ? POISON[(i / 50) % POISON.length] : Kind.GOOD;
    }

    @Test
    @Timeout(180)
    void noDeadLetterIsLostAndEveryGoodRecordDeliveredAcrossASigkill(KafkaTestCluster kafka, @TempDir Path dir) {
        String uid = Delivery.unique("dlq-crash");
        String input = "in-" + uid;
        String eu = "eu-" + uid;
        String rest = "rest-" + uid;
        String dlt = "dlt-" + uid;
        String group = "group-" + uid;
        kafka.createTopic(input, PARTITIONS);
        kafka.createTopic(eu, PARTITIONS, -1, Map.of("cleanup.policy", "compact"));
        kafka.createTopic(rest, PARTITIONS);
        kafka.createTopic(dlt, 1);
        Map<String, Kind> poisonByValue = new HashMap<>();
        Set<String> good = new HashSet<>();
        List<TestRecord> records = new ArrayList<>(ORDERS);
        for (int i = 0; i < ORDERS; i++) {
            TestRecord r = DeadLetterOrders.record(i, kind(i)).toPartition(i % PARTITIONS);
            records.add(r);
            if (kind(i) == Kind.GOOD) {
                good.add(Orders.id(i));
            } else {
                poisonByValue.put(r.valueAsString(), kind(i));
            }
        }
        kafka.produce(input, records);
        Path yaml = PipelineYaml.of(uid, kafka.bootstrapServers(), input, group)
                .groupInstanceId("dlq-crash-instance")
                .sessionTimeout("6s")
                .sink("eu", eu)
                .sink("rest", rest)
                .deadLetterOnEveryError(dlt)
                .eachSink("max_message_bytes", "2KB")
                .pool(4, 4, 500, "5ms")
                .checkpoint("100ms", "10s")
                .write(dir);

        ChildPipeline first = children.start("dlq", yaml, uid + "-0");
        children.awaitWhileRunning(
                Duration.ofSeconds(60), Duration.ofMillis(50), current -> kafka.committedTotal(group) >= ORDERS / 10);
        first.kill9();
        long atKill = kafka.committedTotal(group);
        assertThat(atKill).as("killed mid-run").isLessThan(ORDERS);
        System.out.printf("dead-letter crash test: SIGKILL at committed total %d of %d%n", atKill, ORDERS);

        ChildPipeline second = children.start("dlq", yaml, uid + "-1");
        children.awaitWhileRunning(
                Duration.ofSeconds(120), Duration.ofMillis(200), current -> Delivery.caughtUp(kafka, group, input));
        second.stopWithin(Duration.ofSeconds(30));

        Set<String> delivered = new HashSet<>();
        for (String topic : List.of(eu, rest)) {
            kafka.readAll(topic).forEach(r -> delivered.add(Orders.idOf(r)));
        }
        List<String> missing =
                good.stream().filter(id -> !delivered.contains(id)).sorted().toList();
        assertThat(missing).as("good orders missing from the output").isEmpty();
        Map<String, String> stageByValue = new HashMap<>();
        int letters = 0;
        for (TestRecord letter : kafka.readAll(dlt)) {
            letters++;
            stageByValue.put(
                    new String(letter.value(), StandardCharsets.UTF_8), letter.headerAsString(DeadLetter.STAGE_HEADER));
        }
        List<String> lost = new ArrayList<>();
        poisonByValue.forEach((value, kind) -> {
            String stage = stageByValue.get(value);
            if (stage == null) {
                lost.add(value);
            } else {
                assertThat(stage).as("stage of %s", value).isEqualTo(kind.stage);
            }
        });
        System.out.printf(
                "dead-letter crash test: %d dead letters for %d poison records%n", letters, poisonByValue.size());
        assertThat(lost).as("poison records missing from the dead-letter topic").isEmpty();
        Map<TopicPartition, Long> end = kafka.endOffsets(input);
        assertThat(kafka.committedOffsets(group)).isEqualTo(end);
    }
}
