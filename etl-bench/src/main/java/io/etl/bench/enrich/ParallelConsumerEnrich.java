package io.etl.bench.enrich;

import io.confluent.parallelconsumer.ParallelConsumerOptions;
import io.confluent.parallelconsumer.ParallelEoSStreamProcessor;
import io.etl.examples.enrich.CustomerClient;
import io.etl.examples.enrich.OrderEvent;
import java.net.URI;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Confluent's parallel-consumer (0.5.3.3) with {@code KEY} ordering at the race's concurrency: its worker threads
 * call the same client's blocking lookup, and it produces each result with its own producer. At-least-once: its
 * default periodic asynchronous commits of the offsets it tracks.
 */
final class ParallelConsumerEnrich implements AutoCloseable {

    private final ParallelEoSStreamProcessor<byte[], byte[]> processor;

    ParallelConsumerEnrich(String brokers, EnrichTopics topics, URI service, int concurrency) {
        ParallelConsumerOptions<byte[], byte[]> options = ParallelConsumerOptions.<byte[], byte[]>builder()
                .ordering(ParallelConsumerOptions.ProcessingOrder.KEY)
                .maxConcurrency(concurrency)
                .consumer(EnrichClients.consumer(brokers, topics))
                .producer(EnrichClients.producer(brokers))
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
