package io.etl.kafka.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etl.core.error.DeadLetter;
import io.etl.core.error.RecordException;
import io.etl.core.record.Header;
import io.etl.core.record.RecordMeta;
import io.etl.testkit.EmbeddedKafka;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.TestRecord;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Dead letters written as the pipeline writes them, replayed to where they came from (or elsewhere). */
@EmbeddedKafka(shared = true)
class DeadLetterRedriveIT {

    static KafkaTestCluster kafka;

    private String orders;
    private String dlq;

    @BeforeEach
    void topics() {
        orders = SinkIts.unique("orders");
        dlq = SinkIts.unique("orders-dlq");
        kafka.createTopic(orders, 2);
        kafka.createTopic(dlq, 2);
        kafka.produce(
                dlq,
                List.of(
                        letter(0, "k0", "{\"id\":0}", DeadLetter.operatorStage("parse"), RecordException.OPERATOR),
                        letter(1, "k1", "garbage", DeadLetter.DECODE_STAGE, RecordException.DECODE),
                        letter(2, "k2", "{\"id\":2}", DeadLetter.produceStage("eu"), RecordException.PRODUCE),
                        letter(3, "k3", "{\"id\":3}", DeadLetter.operatorStage("enrich"), RecordException.OPERATOR)));
    }

    /** A dead letter of {@code orders} at offset {@code offset}, with the headers the pipeline writes. */
    private TestRecord letter(long offset, String key, String value, String stage, String reason) {
        return letter(offset, key, value, stage, reason, 2L);
    }

    /** {@link #letter(long, String, String, String, String)} rejected at {@code rejectedAt}, epoch milliseconds. */
    private TestRecord letter(long offset, String key, String value, String stage, String reason, long rejectedAt) {
        RecordMeta meta = new RecordMeta(
                orders,
                0,
                offset,
                1L,
                key.getBytes(StandardCharsets.UTF_8),
                List.of(Header.of("trace", "t-" + offset)),
                value.getBytes(StandardCharsets.UTF_8));
        RecordException error = RecordException.at(meta, stage, reason, "it broke", new IllegalStateException("x"));
        TestRecord record = TestRecord.of(key, value);
        for (Header h : new DeadLetter("orders-pipeline", stage, meta, error, 1, rejectedAt).headers()) {
            record = record.withHeader(h.key(), h.value());
        }
        return record;
    }

    private Map<String, String> client() {
        return kafka.clientProperties();
    }

    @Test
    void aPlanReadsAndFiltersButWritesNothing() {
        List<DeadLetterRedrive.Letter> seen = new ArrayList<>();

        DeadLetterRedrive.Report plan = DeadLetterRedrive.from(client(), dlq)
                .stage("operator:*")
                .onEach(seen::add)
                .plan();

        assertThat(plan.read()).isEqualTo(4);
        assertThat(plan.matched()).isEqualTo(2);
        assertThat(plan.sent()).isZero();
        assertThat(plan.byTarget()).isEqualTo(Map.of(orders, 2L));
        assertThat(seen)
                .extracting(DeadLetterRedrive.Letter::stage)
                .containsExactlyInAnyOrder("operator:parse", "operator:enrich");
        assertThat(seen).allSatisfy(l -> assertThat(l.reason()).isEqualTo("operator"));
        assertThat(kafka.endTotal(orders)).isZero();
    }

    @Test
    void executeWritesTheOriginalRecordsBackToTheirTopicWithRedriveHeaders() {
        DeadLetterRedrive.Report done = DeadLetterRedrive.from(client(), dlq)
                .reason("decode")
                .reason("produce")
                .execute();

        assertThat(done.sent()).isEqualTo(2);
        assertThat(done.failed()).isZero();
        List<TestRecord> written = kafka.readAll(orders);
        assertThat(written).extracting(TestRecord::keyAsString).containsExactlyInAnyOrder("k1", "k2");
        TestRecord garbage = written.stream()
                .filter(r -> r.keyAsString().equals("k1"))
                .findFirst()
                .orElseThrow();
        assertThat(garbage.valueAsString()).isEqualTo("garbage");
        assertThat(garbage.headers().keySet())
                .containsExactlyInAnyOrder(
                        "trace", DeadLetterRedrive.REDRIVEN_FROM_HEADER, DeadLetterRedrive.REDRIVE_COUNT_HEADER);
        assertThat(garbage.headerAsString("trace")).isEqualTo("t-1");
        assertThat(garbage.headerAsString(DeadLetterRedrive.REDRIVEN_FROM_HEADER))
                .startsWith(dlq + "-");
        assertThat(garbage.headerAsString(DeadLetterRedrive.REDRIVE_COUNT_HEADER))
                .isEqualTo("1");
    }

    @Test
    void aRecordRedrivenTwiceCountsItsRedrives() {
        String again = SinkIts.unique("again");
        kafka.createTopic(again, 1);
        DeadLetterRedrive.from(client(), dlq).stage("decode").to(again).execute();
        // the redriven record fails again: its new dead letter keeps the redrive headers as source headers
        String secondDlq = SinkIts.unique("dlq2");
        kafka.createTopic(secondDlq, 1);
        TestRecord first = kafka.readAll(again).get(0);
        TestRecord failedAgain = TestRecord.of(first.key(), first.value())
                .withHeader(DeadLetterRedrive.REDRIVE_COUNT_HEADER, "1")
                .withHeader(DeadLetter.SOURCE_HEADER, again + "-0@0")
                .withHeader(DeadLetter.STAGE_HEADER, "decode");
        kafka.produce(secondDlq, List.of(failedAgain));

        DeadLetterRedrive.from(client(), secondDlq).execute();

        assertThat(kafka.readAll(again))
                .extracting(r -> r.headerAsString(DeadLetterRedrive.REDRIVE_COUNT_HEADER))
                .containsExactly("1", "2");
    }

    @Test
    void aDeadLetterWithoutItsValueIsReportedAndNotWritten() {
        kafka.produce(
                dlq,
                List.of(TestRecord.of("k9", "")
                        .withHeader(DeadLetter.SOURCE_HEADER, orders + "-1@9")
                        .withHeader(DeadLetter.STAGE_HEADER, "produce:eu")
                        .withHeader("etl.dlq.value.dropped", "2000000")));
        List<DeadLetterRedrive.Letter> seen = new ArrayList<>();

        DeadLetterRedrive.Report done = DeadLetterRedrive.from(client(), dlq)
                .stage("produce:eu")
                .onEach(seen::add)
                .execute();

        assertThat(done.matched()).isEqualTo(2);
        assertThat(done.sent()).isEqualTo(1);
        assertThat(done.unredrivable()).isEqualTo(1);
        assertThat(seen)
                .filteredOn(l -> !l.redrivable())
                .singleElement()
                .satisfies(l -> assertThat(l.problem()).contains("2000000 bytes", orders + "-1@9"));
    }

    @Test
    void aTimeWindowKeepsOnlyTheDeadLettersRejectedInIt() {
        String window = SinkIts.unique("window-dlq");
        kafka.createTopic(window, 1);
        String stage = DeadLetter.operatorStage("parse");
        kafka.produce(
                window,
                List.of(
                        letter(10, "a", "{}", stage, RecordException.OPERATOR, 1_000L),
                        letter(11, "b", "{}", stage, RecordException.OPERATOR, 2_000L),
                        letter(12, "c", "{}", stage, RecordException.OPERATOR, 3_000L)));
        List<DeadLetterRedrive.Letter> seen = new ArrayList<>();

        DeadLetterRedrive.Report plan = DeadLetterRedrive.from(client(), window)
                .since(Instant.ofEpochMilli(2_000L))
                .until(Instant.ofEpochMilli(3_000L))
                .onEach(seen::add)
                .plan();

        assertThat(plan.read()).isEqualTo(3);
        assertThat(plan.matched()).isEqualTo(1);
        assertThat(seen).singleElement().satisfies(l -> {
            assertThat(l.rejected()).isEqualTo(Instant.ofEpochMilli(2_000L));
            assertThat(l.position()).isEqualTo(window + "-0@1");
        });
    }

    @Test
    void aMissingTopicIsNamed() {
        assertThatThrownBy(() -> DeadLetterRedrive.from(client(), dlq)
                        .to("no-such-topic")
                        .execute())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("target topic 'no-such-topic' does not exist");
        assertThatThrownBy(() -> DeadLetterRedrive.from(client(), "no-such-dlq").plan())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("dead-letter topic 'no-such-dlq' does not exist");
    }

    @Test
    void theSourceTopicOfAPositionMayHoldDashes() {
        assertThat(DeadLetterRedrive.topicOf("orders-eu-3@42")).isEqualTo("orders-eu");
        assertThat(DeadLetterRedrive.topicOf("no position")).isNull();
    }
}
