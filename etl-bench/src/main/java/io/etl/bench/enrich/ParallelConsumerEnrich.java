package io.etl.bench.enrich;

import io.confluent.parallelconsumer.ParallelConsumerOptions;
import io.confluent.parallelconsumer.ParallelEoSStreamProcessor;
import io.etl.examples.enrich.CustomerClient;
import io.etl.examples.enrich.OrderEvent;
import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Confluent's parallel-consumer (0.5.3.3) with {@code KEY} ordering at the race's concurrency: its worker threads
 * call the same client's blocking lookup, and it produces each result with its own producer. At-least-once: its
 * default periodic asynchronous commits of the offsets it tracks.
 */
final class ParallelConsumerEnrich implements AutoCloseable {

    private final ParallelEoSStreamProcessor<byte[], byte[]> processor;

    ParallelConsumerEnrich(String brokers, EnrichTopics topics, URI service, int concurrency) {
        Map<String, Object> consumer = new HashMap<>();
        consumer.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, brokers);
        consumer.put(ConsumerConfig.GROUP_ID_CONFIG, topics.group());
        consumer.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        consumer.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        Map<String, Object> producer = new HashMap<>();
        producer.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, brokers);
        producer.put(ProducerConfig.ACKS_CONFIG, "all");
        producer.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        producer.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        ParallelConsumerOptions<byte[], byte[]> options = ParallelConsumerOptions.<byte[], byte[]>builder()
                .ordering(ParallelConsumerOptions.ProcessingOrder.KEY)
                .maxConcurrency(concurrency)
                .consumer(new KafkaConsumer<>(consumer, new ByteArrayDeserializer(), new ByteArrayDeserializer()))
                .producer(new KafkaProducer<>(producer, new ByteArraySerializer(), new ByteArraySerializer()))
                .commitMode(ParallelConsumerOptions.CommitMode.PERIODIC_CONSUMER_ASYNCHRONOUS)
                .build();
        CustomerClient client = CustomerClient.of(service);
        String output = topics.output();
        this.processor = new ParallelEoSStreamProcessor<>(options);
        processor.subscribe(List.of(topics.input()));
        processor.pollAndProduce(context -> {
            ConsumerRecord<byte[], byte[]> r = context.getSingleConsumerRecord();
            OrderEvent order = EnrichOrdersInput.decode(r.value());
            byte[] enriched = EnrichOrdersInput.encode(order.enrich(client.lookupBlocking(order.customer())));
            return new ProducerRecord<>(output, r.key(), enriched);
        });
    }

    /** Why its control loop ended, when it ended on its own (null while it runs). */
    Exception failure() {
        return processor.isClosedOrFailed() ? processor.getFailureCause() : null;
    }

    /** Whether its control loop ended on its own. */
    boolean failed() {
        return processor.isClosedOrFailed();
    }

    @Override
    public void close() {
        processor.close();
    }
}
