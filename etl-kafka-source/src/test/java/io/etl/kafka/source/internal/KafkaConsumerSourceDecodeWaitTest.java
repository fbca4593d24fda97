package io.etl.kafka.source.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.core.error.ErrorPolicy;
import io.etl.core.error.RetryableException;
import io.etl.core.record.RecordMeta;
import io.etl.core.source.PartitionListener;
import io.etl.core.source.SourceContext;
import io.etl.core.source.SourceOutput;
import io.etl.core.source.SourcePartition;
import io.etl.kafka.source.Decoder;
import io.etl.kafka.source.KafkaSourceConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A decoder that cannot decode a record yet ({@link RetryableException}): the source gives the rest of the poll
 * back, pauses, says why, and offers the same record again after the backoff; nothing is skipped.
 */
class KafkaConsumerSourceDecodeWaitTest {

    private static final TopicPartition P0 = new TopicPartition("payments", 0);
    private static final TopicPartition P1 = new TopicPartition("payments", 1);

    private final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("earliest");
    private final List<String> emitted = new ArrayList<>();
    private final List<String> failed = new ArrayList<>();
    private final AtomicLong now = new AtomicLong(1);
    /** Values starting with "new" need a registry that is down while this is true. */
    private boolean registryDown = true;

    private KafkaConsumerSource<String> source;

    private final SourceOutput<String> output = new SourceOutput<>() {
        @Override
        public void emit(String value, RecordMeta meta) {
            emitted.add(value);
        }

        @Override
        public void decodeFailed(RecordMeta meta, Throwable cause) {
            failed.add(new String(meta.payload(), StandardCharsets.UTF_8));
        }
    };

    @BeforeEach
    void open() {
        Decoder<String> decoder = (payload, meta) -> {
            String value = new String(payload, StandardCharsets.UTF_8);
            if (value.startsWith("new") && registryDown) {
                throw new RetryableException("schema registry did not answer");
            }
            if (value.startsWith("bad")) {
                throw new IllegalArgumentException("unknown magic byte");
            }
            return value;
        };
        source = new KafkaConsumerSource<>(
                "payments",
                KafkaSourceConfig.custom()
                        .brokers("b:9092")
                        .topics("payments")
                        .groupId("g")
                        .build(),
                ErrorPolicy.SKIP,
                decoder,
                props -> consumer,
                false);
        source.clock = now::get;
        source.open(new SourceContext("p", new NoListener(), new SimpleMeterRegistry()));
        consumer.updateBeginningOffsets(Map.of(P0, 0L, P1, 0L));
        consumer.schedulePollTask(() -> consumer.rebalance(List.of(P0, P1)));
        source.poll(Duration.ZERO, output);
    }

    private void add(TopicPartition tp, long offset, String value) {
        consumer.addRecord(
                new ConsumerRecord<>(tp.topic(), tp.partition(), offset, null, value.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void shouldRewindPauseAndOfferTheRecordAgainOnceTheBackoffHasPassed() {
        add(P0, 0, "a");
        add(P0, 1, "new-b");
        add(P0, 2, "c");
        add(P1, 0, "d");

        source.poll(Duration.ZERO, output);

        assertThat(emitted).doesNotContain("new-b", "c");
        assertThat(consumer.position(P0)).isEqualTo(1);
        assertThat(consumer.paused()).contains(P0, P1);
        assertThat(source.waitingFor())
                .hasValueSatisfying(why -> assertThat(why).contains("payments-0@1"));

        source.pause();
        source.resume(); // the pipeline's own resume does not end the wait
        assertThat(consumer.paused()).contains(P0, P1);
        add(P0, 1, "new-b");
        add(P0, 2, "c");
        source.poll(Duration.ZERO, output);
        assertThat(emitted).doesNotContain("new-b");

        registryDown = false;
        now.addAndGet(TimeUnit.MILLISECONDS.toNanos(DecodeWait.INITIAL_BACKOFF_MILLIS));
        add(P0, 1, "new-b");
        add(P0, 2, "c");
        if (!emitted.contains("d")) {
            add(P1, 0, "d");
        }
        source.poll(Duration.ZERO, output);

        assertThat(emitted).containsExactlyInAnyOrder("a", "new-b", "c", "d");
        assertThat(emitted.indexOf("new-b")).isLessThan(emitted.indexOf("c"));
        assertThat(source.waitingFor()).isEmpty();
        assertThat(consumer.paused()).isEmpty();
        assertThat(failed).isEmpty();
    }

    @Test
    void shouldEndTheWaitWhenTheRecordTurnsOutToBeARecordError() {
        add(P0, 0, "newbad");
        source.poll(Duration.ZERO, output);
        assertThat(source.waitingFor()).isPresent();

        now.addAndGet(TimeUnit.MILLISECONDS.toNanos(DecodeWait.INITIAL_BACKOFF_MILLIS));
        registryDown = false;
        add(P0, 0, "badnew");
        source.poll(Duration.ZERO, output);

        assertThat(failed).containsExactly("badnew");
        assertThat(source.waitingFor()).isEmpty();
    }

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
