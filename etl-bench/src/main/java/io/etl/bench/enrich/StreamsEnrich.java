package io.etl.bench.enrich;

import io.etl.examples.enrich.CustomerClient;
import io.etl.examples.enrich.OrderEvent;
import java.net.URI;
import java.time.Duration;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;

/**
 * Kafka Streams with two stream threads: {@code mapValues} calls the same client's blocking lookup, one record at a
 * time per thread (Kafka Streams has no asynchronous processing), at-least-once.
 */
final class StreamsEnrich implements AutoCloseable {

    private final KafkaStreams streams;

    StreamsEnrich(String brokers, EnrichTopics topics, URI service) {
        CustomerClient client = CustomerClient.of(service);
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(topics.input(), Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()))
                .mapValues(value -> {
                    OrderEvent order = EnrichOrdersInput.decode(value);
                    return EnrichOrdersInput.encode(order.enrich(client.lookupBlocking(order.customer())));
                })
                .to(topics.output(), Produced.with(Serdes.ByteArray(), Serdes.ByteArray()));
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, topics.group());
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, brokers);
        props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 2);
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.AT_LEAST_ONCE);
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 500);
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
        props.put(StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG), 5);
        this.streams = new KafkaStreams(builder.build(), props);
        streams.start();
    }

    boolean failed() {
        return streams.state() == KafkaStreams.State.ERROR;
    }

    @Override
    public void close() {
        streams.close(Duration.ofSeconds(30));
    }
}
