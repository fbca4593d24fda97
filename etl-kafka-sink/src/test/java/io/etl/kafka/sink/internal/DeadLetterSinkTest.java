package io.etl.kafka.sink.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etl.core.config.PipelineConfig;
import io.etl.core.config.SinkSection;
import io.etl.core.error.DeadLetter;
import io.etl.core.error.ErrorPolicy;
import io.etl.core.error.RecordException;
import io.etl.core.record.Header;
import io.etl.core.record.RecordMeta;
import io.etl.core.sink.Sink;
import io.etl.kafka.sink.KafkaMessage;
import io.etl.kafka.sink.KafkaSink;
import io.etl.kafka.sink.KafkaSinkConfig;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.junit.jupiter.api.Test;

class DeadLetterSinkTest {

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static DeadLetter letter(byte[] payload) {
        RecordMeta meta = new RecordMeta("orders", 1, 7L, 5L, bytes("k"), List.of(Header.of("trace", "t")), payload);
        RecordException error = RecordException.at(meta, "orders", RecordException.DECODE, "not JSON", null);
        return new DeadLetter("p", DeadLetter.DECODE_STAGE, meta, error, 1, 99L);
    }

    @SuppressWarnings("unchecked")
    private static Sink<DeadLetter, KafkaMessage> sink(String yaml) {
        PipelineConfig config = PipelineConfig.parse(yaml, n -> null);
        SinkSection section = config.deadLetter().orElseThrow();
        return (Sink<DeadLetter, KafkaMessage>)
                new KafkaSinkConfigType().deadLetterSink(section).orElseThrow();
    }

    private static Map<String, String> headers(KafkaMessage m) {
        return m.headers().stream().collect(Collectors.toMap(Header::key, Header::valueAsString));
    }

    @Test
    void theDeadLetterSinkWritesTheRecordAsReadAndNeverSkips() {
        Sink<DeadLetter, KafkaMessage> sink = sink("dead_letter: {kafka: {brokers: b:9092, topic: orders-dlt}}");
        DeadLetter letter = letter(bytes("{oops"));

        KafkaMessage m = sink.encoder().encode(letter, letter.source(), 0);

        assertThat(sink.name()).isEqualTo(PipelineConfig.DEAD_LETTER);
        assertThat(sink.errorPolicy()).isEqualTo(ErrorPolicy.FAIL);
        assertThat(m.key()).isEqualTo(bytes("k"));
        assertThat(m.value()).isEqualTo(bytes("{oops"));
        assertThat(headers(m))
                .containsEntry("trace", "t")
                .containsEntry(DeadLetter.STAGE_HEADER, "decode")
                .containsEntry(DeadLetter.SOURCE_HEADER, "orders-1@7");
    }

    @Test
    void aDeadLetterTooLargeForItsTopicIsWrittenWithoutItsValue() {
        Sink<DeadLetter, KafkaMessage> sink =
                sink("dead_letter: {kafka: {brokers: b:9092, topic: orders-dlt, max_message_bytes: 400}}");
        DeadLetter letter = letter(new byte[1000]);

        KafkaMessage m = sink.encoder().encode(letter, letter.source(), 0);

        assertThat(m.value()).isEmpty();
        assertThat(headers(m))
                .containsEntry(DeadLetterEncoder.VALUE_DROPPED_HEADER, "1000")
                .containsEntry(DeadLetter.SOURCE_HEADER, "orders-1@7");
    }

    @Test
    void theTopicLimitTightensTheGuardWithRoomForRecordOverhead() {
        GuardedEncoder<byte[]> guard =
                new GuardedEncoder<>("out", 1_000_000, false, (value, meta, index) -> KafkaMessage.of(null, value));
        RecordMeta meta = RecordMeta.of("in", 0, 0);

        assertThat(guard.limitToTopic(1500))
                .as("the topic is the tighter limit")
                .isTrue();
        assertThat(guard.encode(new byte[1500 - GuardedEncoder.RECORD_BATCH_OVERHEAD], meta, 0))
                .isNotNull();
        assertThatThrownBy(() -> guard.encode(new byte[1500 - GuardedEncoder.RECORD_BATCH_OVERHEAD + 1], meta, 0))
                .isInstanceOf(RecordException.class)
                .hasMessageContaining("max.message.bytes 1500 of topic out")
                .satisfies(e -> assertThat(((RecordException) e).reason()).isEqualTo(RecordException.OVERSIZED));
        assertThat(new GuardedEncoder<byte[]>("out", 1000, false, (v, m, i) -> KafkaMessage.of(null, v))
                        .limitToTopic(1_048_588))
                .as("max_message_bytes is the tighter limit")
                .isFalse();
    }

    @Test
    void onlyRefusalsOfOneRecordAreRecordErrors() {
        assertThat((Predicate<Throwable>) KafkaErrorClassifier::concernsOneRecord)
                .accepts(
                        new RecordTooLargeException("too big"),
                        new KafkaException(new InvalidRecordException("no key")))
                .rejects(new NotEnoughReplicasException("isr"));
        assertThat((Predicate<Throwable>) KafkaErrorClassifier::isCollateral)
                .accepts(new KafkaException("part of a batch with invalid records"))
                .rejects(new NotEnoughReplicasException("isr"));
    }

    @Test
    void aDeadLetterSectionWithADeniedProducerKeyIsAConfigError() {
        assertThatThrownBy(() -> PipelineConfig.parse(
                        "dead_letter: {kafka: {brokers: b:9092, topic: t, producer: {acks: \"1\"}}}", n -> null))
                .hasMessageContaining("dead_letter.kafka.producer.acks");
    }

    @Test
    void anExplicitSectionBuildsTheSameSink() {
        KafkaSinkConfig config =
                KafkaSinkConfig.custom().brokers("b:9092").topic("dlt").build();
        SinkSection section = new SinkSection(PipelineConfig.DEAD_LETTER, KafkaSink.CONNECTOR, config, null);
        assertThat(new KafkaSinkConfigType().deadLetterSink(section))
                .hasValueSatisfying(s -> assertThat(s.toString()).contains("dlt"));
    }
}
