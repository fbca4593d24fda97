package io.etl.bench.impl;

import io.etl.bench.orders.OrderCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.BranchedKStream;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;

/**
 * The Kafka Streams contestant: {@code stream → mapValues(decode, drop test, reshape) → filter → split
 * by region → to(topic)}, at-least-once, keys kept as bytes.
 *
 * <p>Tuning, chosen to match what the etl example and the clients loop get: {@code num.stream.threads}
 * {@value #DEFAULT_THREADS} (override with {@code -Detl.bench.streams.threads}), {@code commit.interval.ms}
 * 500 (the example's {@code checkpoint.interval}), the race's {@link RaceClientSettings}, {@code acks=all},
 * idempotence on.
 */
final class StreamsSplit implements SplitImplementation {

    static final int DEFAULT_THREADS = 2;

    private final boolean exactlyOnce;

    StreamsSplit() {
        this(false);
    }

    /** @param exactlyOnce run with {@code processing.guarantee=exactly_once_v2} instead of at-least-once */
    StreamsSplit(boolean exactlyOnce) {
        this.exactlyOnce = exactlyOnce;
    }

    @Override
    public String name() {
        return exactlyOnce ? Contestant.STREAMS_EOS.label() : Contestant.STREAMS.label();
    }

    @Override
    public boolean transactional() {
        return exactlyOnce;
    }

    /** The topology, separate so a test could describe it. */
    static Topology topology(RaceTopics topics) {
        OrderCodec codec = new OrderCodec();
        StreamsBuilder builder = new StreamsBuilder();
        Produced<byte[], byte[]> produced = Produced.with(Serdes.ByteArray(), Serdes.ByteArray());
        KStream<byte[], OrderCodec.Routed> routed = builder.stream(
                        topics.input(), Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()))
                .mapValues(codec::transform, Named.as("decode-filter-reshape"))
                .filter((key, order) -> order != null, Named.as("drop-test"));
        BranchedKStream<byte[], OrderCodec.Routed> split = routed.split(Named.as("by-region-"));
        String[] outputs = {topics.eu(), topics.us(), topics.apac()};
        String[] names = {"eu", "us", "apac"};
        for (int b = 0; b < outputs.length; b++) {
            int branch = b;
            String topic = outputs[b];
            split.branch(
                    (key, order) -> order.branch() == branch,
                    Branched.withConsumer(
                            s -> s.mapValues(OrderCodec.Routed::json).to(topic, produced), names[b]));
        }
        split.defaultBranch(Branched.withConsumer(
                s -> s.mapValues(OrderCodec.Routed::json).to(topics.unrouted(), produced), "unrouted"));
        return builder.build();
    }

    @Override
    public Running start(String bootstrapServers, Map<String, String> clientProperties, RaceTopics topics) {
        Path stateDir;
        try {
            stateDir = Files.createTempDirectory("etl-bench-streams");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Properties props = new Properties();
        props.putAll(clientProperties);
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, topics.group());
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(
                StreamsConfig.PROCESSING_GUARANTEE_CONFIG,
                exactlyOnce ? StreamsConfig.EXACTLY_ONCE_V2 : StreamsConfig.AT_LEAST_ONCE);
        props.put(
                StreamsConfig.NUM_STREAM_THREADS_CONFIG,
                Integer.getInteger("etl.bench.streams.threads", DEFAULT_THREADS));
        // exactly_once_v2: Kafka Streams' own default commit interval for it, 100 ms
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, exactlyOnce ? 100 : 500);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(
                StreamsConfig.consumerPrefix(ConsumerConfig.MAX_POLL_RECORDS_CONFIG),
                RaceClientSettings.MAX_POLL_RECORDS);
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
        props.put(StreamsConfig.producerPrefix(ProducerConfig.ACKS_CONFIG), "all");
        props.put(StreamsConfig.producerPrefix(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG), true);
        props.put(StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG), RaceClientSettings.LINGER_MS);
        props.put(StreamsConfig.producerPrefix(ProducerConfig.BATCH_SIZE_CONFIG), RaceClientSettings.BATCH_SIZE);
        KafkaStreams streams = new KafkaStreams(topology(topics), props);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        streams.setUncaughtExceptionHandler(e -> {
            failure.compareAndSet(null, e);
            return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
        streams.start();
        return new Running() {
            @Override
            public Optional<Throwable> failure() {
                return Optional.ofNullable(failure.get());
            }

            @Override
            public void close() {
                boolean closed = streams.close(
                        CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                                .withTimeout(Duration.ofSeconds(15)));
                if (closed) {
                    streams.cleanUp();
                }
                try (var files = Files.walk(stateDir)) {
                    files.sorted(Comparator.reverseOrder())
                            .forEach(p -> p.toFile().delete());
                } catch (IOException ignored) {
                    // a temp directory left behind is harmless
                }
            }
        };
    }
}
