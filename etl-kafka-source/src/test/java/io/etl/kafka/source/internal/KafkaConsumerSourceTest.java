package io.etl.kafka.source.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etl.core.error.ErrorPolicy;
import io.etl.core.record.Header;
import io.etl.core.record.RecordMeta;
import io.etl.core.source.CommitCallback;
import io.etl.core.source.PartitionListener;
import io.etl.core.source.SourceContext;
import io.etl.core.source.SourceOutput;
import io.etl.core.source.SourcePartition;
import io.etl.kafka.source.KafkaSourceConfig;
import io.etl.kafka.source.KafkaSourceMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetCommitCallback;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class KafkaConsumerSourceTest {

    private static final String TOPIC = "orders";
    private static final TopicPartition P0 = new TopicPartition(TOPIC, 0);
    private static final TopicPartition P1 = new TopicPartition(TOPIC, 1);
    private static final SourcePartition S0 = new SourcePartition(TOPIC, 0);
    private static final SourcePartition S1 = new SourcePartition(TOPIC, 1);

    /** Every sync commit, in order (MockConsumer reports offset 0 for committed partitions it no longer has). */
    private final List<Map<TopicPartition, OffsetAndMetadata>> syncCommits = new ArrayList<>();
    /** When set, every commit fails with it. */
    private RuntimeException commitError;

    private final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("earliest") {
        @Override
        public void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets, Duration timeout) {
            syncCommits.add(Map.copyOf(offsets));
            if (commitError != null) {
                throw commitError;
            }
            super.commitSync(offsets, timeout);
        }

        @Override
        public synchronized void commitAsync(
                Map<TopicPartition, OffsetAndMetadata> offsets, OffsetCommitCallback callback) {
            if (commitError != null) {
                callback.onComplete(offsets, commitError);
                return;
            }
            super.commitAsync(offsets, callback);
        }
    };
    private final RecordingListener listener = new RecordingListener();
    private final RecordingOutput<String> output = new RecordingOutput<>();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private KafkaConsumerSource<String> source;
    /** Every commit callback, in order: the offsets sent and the error (null on success). */
    private final List<Map.Entry<Map<SourcePartition, Long>, Optional<Throwable>>> completions = new ArrayList<>();

    private final CommitCallback done =
            (offsets, error) -> completions.add(Map.entry(offsets, Optional.ofNullable(error)));

    @BeforeEach
    void open() {
        source = new KafkaConsumerSource<>(
                "orders",
                KafkaSourceConfig.custom()
                        .brokers("b:9092")
                        .topics(TOPIC)
                        .groupId("g")
                        .build(),
                ErrorPolicy.SKIP,
                Decoders.string(),
                props -> consumer,
                false);
        source.open(new SourceContext("p", listener, registry));
        consumer.updateBeginningOffsets(Map.of(P0, 0L, P1, 0L));
    }

    private void rebalanceTo(TopicPartition... partitions) {
        consumer.schedulePollTask(() -> consumer.rebalance(List.of(partitions)));
        source.poll(Duration.ZERO, output);
    }

    /** Makes the source read the time from the returned nanosecond counter, which only the test moves. */
    private AtomicLong manualClock() {
        AtomicLong now = new AtomicLong(1);
        source.clock = now::get;
        return now;
    }

    /**
     * Assigns {@code P0}, lets {@code wait} pass without the group calling back, then polls its first record.
     * Returns the clock, to move it on.
     */
    private AtomicLong pollTheFirstRecordAfterARebalanceAnd(Duration wait) {
        AtomicLong now = manualClock();
        rebalanceTo(P0);
        now.addAndGet(wait.toNanos());
        consumer.addRecord(record(P0, 0, null, "v0", new RecordHeaders()));
        source.poll(Duration.ZERO, output);
        return now;
    }

    private static ConsumerRecord<byte[], byte[]> record(
            TopicPartition tp, long offset, String key, String value, RecordHeaders headers) {
        return new ConsumerRecord<>(
                tp.topic(),
                tp.partition(),
                offset,
                1_000L + offset,
                TimestampType.CREATE_TIME,
                -1,
                -1,
                key == null ? null : key.getBytes(StandardCharsets.UTF_8),
                value == null ? null : value.getBytes(StandardCharsets.UTF_8),
                headers,
                Optional.empty());
    }

    @Test
    void emitsValuesWithPositionKeyAndHeadersInPartitionOrder() {
        rebalanceTo(P0, P1);
        RecordHeaders headers = new RecordHeaders();
        headers.add("trace", "abc".getBytes(StandardCharsets.UTF_8));
        consumer.addRecord(record(P0, 0, "k0", "v0", headers));
        consumer.addRecord(record(P0, 1, null, null, new RecordHeaders()));
        consumer.addRecord(record(P1, 0, "k2", "v2", new RecordHeaders()));

        source.poll(Duration.ZERO, output);

        assertThat(output.values()).containsExactlyInAnyOrder("v0", null, "v2");
        RecordMeta first = output.meta(0, 0);
        assertThat(first.position()).isEqualTo("orders-0@0");
        assertThat(first.timestamp()).isEqualTo(1_000L);
        assertThat(new String(first.key(), StandardCharsets.UTF_8)).isEqualTo("k0");
        assertThat(first.headers()).containsExactly(Header.of("trace", "abc"));
        RecordMeta second = output.meta(0, 1);
        assertThat(second.key()).isNull();
        assertThat(second.headers()).isSameAs(List.of());
        assertThat(listener.assigned).containsExactly(List.of(S0, S1));
    }

    @Test
    void rewindsAndRejoinsRatherThanProcessingWhatItFetchedAfterBeingAwayLongerThanTheSession() {
        AtomicLong now = manualClock();
        rebalanceTo(P0);
        consumer.addRecord(record(P0, 0, null, "v0", new RecordHeaders()));
        source.poll(Duration.ZERO, output);
        assertThat(output.values()).containsExactly("v0");

        // frozen (SIGSTOP, a long pause) for longer than session_timeout (10s) plus poll_timeout
        now.addAndGet(Duration.ofSeconds(11).toNanos());
        consumer.addRecord(record(P0, 1, null, "v1", new RecordHeaders()));
        consumer.addRecord(record(P0, 2, null, "v2", new RecordHeaders()));
        source.poll(Duration.ZERO, output);

        assertThat(output.values()).as("nothing fetched since is processed").containsExactly("v0");
        assertThat(consumer.position(P0))
                .as("rewound to the first record it did not process")
                .isEqualTo(1);
        assertThat(consumer.shouldRebalance()).as("it rejoins the group").isTrue();

        // still rejoining: the consumer keeps fetching what it holds, and that is refused too
        consumer.resetShouldRebalance();
        now.addAndGet(Duration.ofMillis(100).toNanos());
        source.poll(Duration.ZERO, output);
        assertThat(output.values()).containsExactly("v0");
        assertThat(consumer.position(P0)).isEqualTo(1);
        assertThat(consumer.shouldRebalance()).as("asked once").isFalse();

        // the group has settled what it owns: records flow again
        rebalanceTo(P0);
        consumer.seek(P0, 1);
        consumer.addRecord(record(P0, 1, null, "v1", new RecordHeaders()));
        source.poll(Duration.ZERO, output);
        assertThat(output.values()).containsExactly("v0", "v1");
    }

    @Test
    void stopsRefusingRecordsWhenTheGroupNeverCallsBackWithinTheSession() {
        AtomicLong now = pollTheFirstRecordAfterARebalanceAnd(Duration.ofSeconds(11));
        assertThat(output.values()).isEmpty();

        for (int i = 0; i < 10; i++) {
            now.addAndGet(Duration.ofMillis(1_100).toNanos());
            source.poll(Duration.ZERO, output);
        }
        consumer.addRecord(record(P0, 0, null, "v0", new RecordHeaders()));
        source.poll(Duration.ZERO, output);

        assertThat(output.values()).as("no stall for ever").containsExactly("v0");
    }

    @Test
    void processesNormallyAfterAWaitThatIsShorterThanTheSession() {
        pollTheFirstRecordAfterARebalanceAnd(Duration.ofSeconds(9));

        assertThat(output.values()).containsExactly("v0");
        assertThat(consumer.shouldRebalance()).isFalse();
    }

    @Test
    void reportsUndecodableRecordsWithTheirPosition() {
        KafkaConsumerSource<Integer> ints = new KafkaConsumerSource<>(
                "ints",
                KafkaSourceConfig.custom()
                        .brokers("b:9092")
                        .topics(TOPIC)
                        .groupId("g")
                        .build(),
                ErrorPolicy.SKIP,
                (payload, meta) -> Integer.parseInt(new String(payload, StandardCharsets.UTF_8)),
                props -> consumer,
                false);
        MockConsumer<byte[], byte[]> c = consumer;
        RecordingOutput<Integer> out = new RecordingOutput<>();
        c.unsubscribe();
        ints.open(new SourceContext("p", listener, registry));
        c.schedulePollTask(() -> c.rebalance(List.of(P0)));
        ints.poll(Duration.ZERO, out);
        c.addRecord(record(P0, 0, null, "1", new RecordHeaders()));
        c.addRecord(record(P0, 1, null, "x", new RecordHeaders()));
        c.addRecord(record(P0, 2, null, "3", new RecordHeaders()));

        ints.poll(Duration.ZERO, out);

        assertThat(out.values()).containsExactly(1, 3);
        assertThat(out.failed).extracting(f -> f.meta().position()).containsExactly("orders-0@1");
        assertThat(out.failed.get(0).cause()).isInstanceOf(NumberFormatException.class);
        assertThat(ints.errorPolicy()).isEqualTo(ErrorPolicy.SKIP);
    }

    @Test
    void pausesEveryAssignedPartitionAndOnesAssignedWhilePaused() {
        rebalanceTo(P0);
        source.pause();
        assertThat(consumer.paused()).containsExactly(P0);

        rebalanceTo(P0, P1);
        assertThat(consumer.paused()).containsExactlyInAnyOrder(P0, P1);

        source.resume();
        assertThat(consumer.paused()).isEmpty();
        rebalanceTo(P1);
        assertThat(consumer.paused()).isEmpty();
    }

    @Test
    void returnsNoRecordsWhilePaused() {
        rebalanceTo(P0);
        source.pause();
        consumer.addRecord(record(P0, 0, null, "v", new RecordHeaders()));
        source.poll(Duration.ZERO, output);
        assertThat(output.values()).isEmpty();
        source.resume();
        source.poll(Duration.ZERO, output);
        assertThat(output.values()).containsExactly("v");
    }

    @Test
    void commitsWhatThePipelineReturnsForRevokedPartitionsSynchronously() {
        rebalanceTo(P0, P1);
        listener.safeOffsets = Map.of(S0, 5L);

        rebalanceTo(P1);

        assertThat(listener.revoked).containsExactly(List.of(S0));
        assertThat(syncCommits).containsExactly(Map.of(P0, new OffsetAndMetadata(5L)));
        assertThat(count(KafkaSourceMetrics.REBALANCES, "event", "revoked")).isEqualTo(1.0);
        assertThat(count(KafkaSourceMetrics.REBALANCES, "event", "assigned")).isEqualTo(1.0);
    }

    @Test
    void neverCommitsPartitionsNoLongerAssigned() {
        rebalanceTo(P0, P1);
        rebalanceTo(P1);

        source.commit(Map.of(S0, 42L, S1, 7L), true, done);
        source.commit(Map.of(S0, 43L), false, done);
        source.poll(Duration.ZERO, output);

        assertThat(consumer.committed(Set.of(P0))).doesNotContainKey(P0);
        assertThat(syncCommits).containsExactly(Map.of(P1, new OffsetAndMetadata(7L)));
    }

    @Test
    void commitsAsynchronouslyAndCountsTheOutcome() {
        rebalanceTo(P0);
        source.commit(Map.of(S0, 3L), false, done);
        source.poll(Duration.ZERO, output);

        assertThat(consumer.committed(Set.of(P0))).containsEntry(P0, new OffsetAndMetadata(3L));
        assertThat(count(KafkaSourceMetrics.COMMITS, "outcome", "success")).isEqualTo(1.0);
        assertThat(completions).containsExactly(Map.entry(Map.of(S0, 3L), Optional.empty()));
    }

    @Test
    void reportsAFailedAsynchronousCommitToThePipeline() {
        rebalanceTo(P0);
        commitError = new RebalanceInProgressException("rebalancing");
        source.commit(Map.of(S0, 3L), false, done);
        source.poll(Duration.ZERO, output);

        assertThat(completions).hasSize(1);
        assertThat(completions.get(0).getKey()).isEqualTo(Map.of(S0, 3L));
        assertThat(completions.get(0).getValue()).containsInstanceOf(RebalanceInProgressException.class);
    }

    @Test
    void reportsAFailedSynchronousCommitInsteadOfOnlyLoggingIt() {
        rebalanceTo(P0);
        commitError = new CommitFailedException("group rebalanced");
        source.commit(Map.of(S0, 4L), true, done);

        assertThat(completions).hasSize(1);
        assertThat(completions.get(0).getValue()).containsInstanceOf(CommitFailedException.class);
    }

    @Test
    void confirmsOnlyThePartitionsItCommitted() {
        rebalanceTo(P0, P1);
        rebalanceTo(P1);
        source.commit(Map.of(S0, 42L, S1, 7L), true, done);

        assertThat(completions).containsExactly(Map.entry(Map.of(S1, 7L), Optional.empty()));
    }

    @Test
    void tellsThePipelineAboutLostPartitionsAndDoesNotCommitThem() {
        rebalanceTo(P0, P1);
        consumer.schedulePollTask(() -> consumer.losePartitions(List.of(P0)));
        source.poll(Duration.ZERO, output);

        assertThat(listener.lost).containsExactly(List.of(S0));
        source.commit(Map.of(S0, 9L), true, done);
        assertThat(consumer.committed(Set.of(P0))).doesNotContainKey(P0);
    }

    @Test
    void rethrowsAFailureOfThePipelineInsideARebalanceAfterPoll() {
        rebalanceTo(P0);
        listener.failOnRevoke = new IllegalStateException("boom");
        consumer.schedulePollTask(() -> consumer.rebalance(List.of(P1)));

        assertThatThrownBy(() -> source.poll(Duration.ZERO, output)).hasMessage("boom");
        assertThat(consumer.committed(Set.of(P0))).doesNotContainKey(P0);
    }

    @Test
    void doesNotCallThePipelineWhileClosing() {
        rebalanceTo(P0);
        source.close(Duration.ofSeconds(1));
        assertThat(consumer.closed()).isTrue();
        assertThat(listener.revoked).isEmpty();
        assertThat(registry.find(KafkaSourceMetrics.ASSIGNED_PARTITIONS).gauges())
                .isEmpty();
        assertThat(count(KafkaSourceMetrics.REBALANCES, "event", "assigned")).isEqualTo(1.0);
    }

    private double count(String meter, String tag, String value) {
        return registry.get(meter).tag(tag, value).counter().count();
    }

    private static final class RecordingListener implements PartitionListener {
        final List<List<SourcePartition>> assigned = new ArrayList<>();
        final List<List<SourcePartition>> revoked = new ArrayList<>();
        final List<List<SourcePartition>> lost = new ArrayList<>();
        Map<SourcePartition, Long> safeOffsets = Map.of();
        RuntimeException failOnRevoke;

        @Override
        public void onAssigned(Collection<SourcePartition> partitions) {
            assigned.add(List.copyOf(partitions));
        }

        @Override
        public Map<SourcePartition, Long> onRevoked(Collection<SourcePartition> partitions, Duration waitUpTo) {
            if (failOnRevoke != null) {
                throw failOnRevoke;
            }
            revoked.add(List.copyOf(partitions));
            Map<SourcePartition, Long> out = new HashMap<>();
            partitions.forEach(p -> {
                if (safeOffsets.containsKey(p)) {
                    out.put(p, safeOffsets.get(p));
                }
            });
            return out;
        }

        @Override
        public void onLost(Collection<SourcePartition> partitions) {
            lost.add(List.copyOf(partitions));
        }
    }

    /** What the source hands over: each value with its meta, each record it could not decode with the cause. */
    private static final class RecordingOutput<T> implements SourceOutput<T> {
        final List<Emitted<T>> emitted = new ArrayList<>();
        final List<DecodeFailed> failed = new ArrayList<>();

        record Emitted<T>(T value, RecordMeta meta) {}

        record DecodeFailed(RecordMeta meta, Throwable cause) {}

        @Override
        public void emit(T value, RecordMeta meta) {
            emitted.add(new Emitted<>(value, meta));
        }

        @Override
        public void decodeFailed(RecordMeta meta, Throwable cause) {
            failed.add(new DecodeFailed(meta, cause));
        }

        /** The values emitted, in order. */
        List<T> values() {
            return emitted.stream().map(Emitted::value).toList();
        }

        /** The meta emitted for the record at {@code offset} of {@code partition}. */
        RecordMeta meta(int partition, long offset) {
            return emitted.stream()
                    .map(Emitted::meta)
                    .filter(m -> m.partition() == partition && m.offset() == offset)
                    .findFirst()
                    .orElseThrow();
        }
    }
}
