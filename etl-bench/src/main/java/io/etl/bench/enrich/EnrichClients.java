package io.etl.bench.enrich;

import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The Kafka clients of the enrich race's contestants that bring their own: one consumer and one producer
 * configuration, so that parallel-consumer and the hand-written loop read and write alike (manual commits from the
 * earliest offset; {@code acks=all}, idempotence, 5 ms linger, as the etl example's sink).
 */
final class EnrichClients {

    private EnrichClients() {}

    /** A consumer in the run's group, committing only when told, from the earliest offset. */
    static KafkaConsumer<byte[], byte[]> consumer(String brokers, EnrichTopics topics) {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                brokers,
                ConsumerConfig.GROUP_ID_CONFIG,
                topics.group(),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                false,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "earliest");
        return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /** An idempotent producer waiting for every in-sync replica, lingering 5 ms. */
    static KafkaProducer<byte[], byte[]> producer(String brokers) {
        Map<String, Object> config = Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                brokers,
                ProducerConfig.ACKS_CONFIG,
                "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                true,
                ProducerConfig.LINGER_MS_CONFIG,
                5);
        return new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
    }
}
