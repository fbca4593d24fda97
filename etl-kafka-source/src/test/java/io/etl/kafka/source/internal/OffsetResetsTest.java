package io.etl.kafka.source.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etl.core.error.ErrorPolicy;
import io.etl.core.error.FatalException;
import io.etl.core.record.RecordMeta;
import io.etl.core.source.PartitionListener;
import io.etl.core.source.SourceContext;
import io.etl.core.source.SourceOutput;
import io.etl.core.source.SourcePartition;
import io.etl.kafka.source.KafkaSourceConfig;
import io.etl.kafka.source.KafkaSourceConfig.AutoOffsetReset;
import io.etl.kafka.source.KafkaSourceMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * The source applies {@code auto_offset_reset} itself (its consumer runs with {@code none}), so that a position the
 * log no longer holds is never left behind in silence: records deleted before they were read are counted and logged.
 */
class OffsetResetsTest {

    private static final TopicPartition P0 = new TopicPartition("orders", 0);

    private final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("none");
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final List<String> read = new ArrayList<>();
    private final SourceOutput<String> output = new SourceOutput<>() {
        @Override
        public void emit(String value, RecordMeta meta) {
            read.add(meta.offset() + ":" + value);
        }

        @Override
        public void decodeFailed(RecordMeta meta, Throwable cause) {
            throw new AssertionError("nothing fails to decode here", cause);
        }
    };

    private KafkaConsumerSource<String> open(AutoOffsetReset policy) {
        KafkaSourceConfig config = KafkaSourceConfig.custom()
                .brokers("b:9092")
                .topics("orders")
                .groupId("g")
                .autoOffsetReset(policy)
                .build();
        KafkaConsumerSource<String> source = new KafkaConsumerSource<>(
                "orders",
                config,
                ErrorPolicy.FAIL,
                Decoders.string(),
                props -> {
                    assertThat(props).containsEntry("auto.offset.reset", "none");
                    return consumer;
                },
                false);
        source.open(new SourceContext("p", new NoListener(), registry));
        return source;
    }

    /** Assigns P0 with {@code committed} as the group's offset, the log holding {@code start} to {@code end}. */
    private void assign(KafkaConsumerSource<String> source, long committed, long start, long end) {
        consumer.updateBeginningOffsets(Map.of(P0, start));
        consumer.updateEndOffsets(Map.of(P0, end));
        consumer.schedulePollTask(() -> {
            consumer.rebalance(List.of(P0));
            consumer.commitSync(Map.of(P0, new OffsetAndMetadata(committed)));
            consumer.seek(P0, committed);
        });
        source.poll(Duration.ZERO, output);
    }

    private static OffsetOutOfRangeException outOfRange(long position) {
        return new OffsetOutOfRangeException(
                "Fetch position FetchPosition{offset=" + position + "} is out of range for partition " + P0,
                Map.of(P0, position));
    }

    private double gaps() {
        return registry.get(KafkaSourceMetrics.OFFSET_GAPS).counter().count();
    }

    private double gapRecords() {
        return registry.get(KafkaSourceMetrics.OFFSET_GAP_RECORDS).counter().count();
    }

    private static ConsumerRecord<byte[], byte[]> record(long offset) {
        return new ConsumerRecord<>(
                P0.topic(), P0.partition(), offset, null, ("v" + offset).getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void jumpsToTheLogStartAndReportsTheRecordsNeverReadWhenTheyWereDeleted() {
        KafkaConsumerSource<String> source = open(AutoOffsetReset.EARLIEST);
        assign(source, 100, 0, 600);
        assertThat(gaps()).isZero();

        consumer.updateBeginningOffsets(Map.of(P0, 500L));
        consumer.setPollException(outOfRange(100));
        source.poll(Duration.ZERO, output);

        assertThat(consumer.position(P0)).isEqualTo(500);
        assertThat(gaps()).isEqualTo(1.0);
        assertThat(gapRecords()).isEqualTo(400.0);
        consumer.addRecord(record(500));
        source.poll(Duration.ZERO, output);
        assertThat(read).containsExactly("500:v500");
    }

    @Test
    void underLatestJumpsToTheEndAndCountsEverythingJumpedOver() {
        KafkaConsumerSource<String> source = open(AutoOffsetReset.LATEST);
        assign(source, 100, 0, 600);

        consumer.updateBeginningOffsets(Map.of(P0, 500L));
        consumer.setPollException(outOfRange(100));
        source.poll(Duration.ZERO, output);

        assertThat(consumer.position(P0)).isEqualTo(600);
        assertThat(gapRecords()).isEqualTo(500.0);
    }

    @Test
    void readsAgainFromTheStartWithoutCountingAGapWhenThePositionIsPastTheEndOfTheLog() {
        KafkaConsumerSource<String> source = open(AutoOffsetReset.EARLIEST);
        assign(source, 700, 0, 800);

        consumer.updateEndOffsets(Map.of(P0, 600L));
        consumer.setPollException(outOfRange(700));
        source.poll(Duration.ZERO, output);

        assertThat(consumer.position(P0)).isZero();
        assertThat(gaps()).isZero();
    }

    @Test
    void staysWhereItWasWhenThePositionIsInRangeAgainByTheTimeItLooks() {
        KafkaConsumerSource<String> source = open(AutoOffsetReset.EARLIEST);
        assign(source, 100, 0, 600);

        consumer.setPollException(outOfRange(100));
        source.poll(Duration.ZERO, output);

        assertThat(consumer.position(P0)).isEqualTo(100);
        assertThat(gaps()).isZero();
    }

    @Test
    void startsAPartitionWithoutACommittedOffsetAtTheLogStartUnderEarliest() {
        KafkaConsumerSource<String> source = open(AutoOffsetReset.EARLIEST);
        consumer.updateBeginningOffsets(Map.of(P0, 7L));
        consumer.updateEndOffsets(Map.of(P0, 9L));
        consumer.schedulePollTask(() -> consumer.rebalance(List.of(P0)));

        source.poll(Duration.ZERO, output);

        assertThat(consumer.position(P0)).isEqualTo(7);
        assertThat(gaps()).as("a partition the group never read has no gap").isZero();
    }

    @Test
    void startsAPartitionWithoutACommittedOffsetAtTheLogEndUnderLatest() {
        KafkaConsumerSource<String> source = open(AutoOffsetReset.LATEST);
        consumer.updateBeginningOffsets(Map.of(P0, 7L));
        consumer.updateEndOffsets(Map.of(P0, 9L));
        consumer.schedulePollTask(() -> consumer.rebalance(List.of(P0)));

        source.poll(Duration.ZERO, output);

        assertThat(consumer.position(P0)).isEqualTo(9);
    }

    @Test
    void failsUnderNoneNamingThePartitionAndTheOffsetTheLogNoLongerHolds() {
        KafkaConsumerSource<String> source = open(AutoOffsetReset.NONE);
        assign(source, 100, 0, 600);

        consumer.setPollException(outOfRange(100));

        assertThatThrownBy(() -> source.poll(Duration.ZERO, output))
                .isInstanceOf(FatalException.class)
                .hasMessageContaining("orders-0=100")
                .hasMessageContaining("auto_offset_reset is none");
        assertThat(consumer.committed(Set.of(P0))).containsEntry(P0, new OffsetAndMetadata(100));
    }

    @Test
    void failsUnderNoneForAPartitionWithoutACommittedOffset() {
        KafkaConsumerSource<String> source = open(AutoOffsetReset.NONE);
        consumer.updateBeginningOffsets(Map.of(P0, 0L));
        consumer.schedulePollTask(() -> consumer.rebalance(List.of(P0)));

        assertThatThrownBy(() -> source.poll(Duration.ZERO, output))
                .isInstanceOf(FatalException.class)
                .hasMessageContaining("orders-0")
                .hasMessageContaining("auto_offset_reset is none");
    }

    /** A pipeline that holds nothing back on a rebalance. */
    private static final class NoListener implements PartitionListener {
        @Override
        public void onAssigned(Collection<SourcePartition> partitions) {}

        @Override
        public Map<SourcePartition, Long> onRevoked(Collection<SourcePartition> partitions, Duration waitUpTo) {
            return Map.of();
        }

        @Override
        public void onLost(Collection<SourcePartition> partitions) {}
    }
}
