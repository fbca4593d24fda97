package io.etl.examples.enrich;

import io.etl.core.Pipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.kafka.sink.KafkaSink;
import io.etl.kafka.source.KafkaSource;

/**
 * Order events completed with their customer by a call to the customer service: up to {@code concurrency} calls in
 * flight (set under {@code pipeline.stages.enrich}), the events of one customer one after another, in order.
 *
 * <pre>{@code
 * PipelineConfig config = PipelineConfig.load(Path.of("enrich_orders.yaml"));
 * EnrichOrders.pipeline(config, CustomerClient.of(URI.create("http://customers:8080/"))).run(config);
 * }</pre>
 */
public final class EnrichOrders {

    private EnrichOrders() {}

    /** The pipeline, from the {@code orders} source to the {@code enriched} sink of {@code config}. */
    public static Pipeline pipeline(PipelineConfig config, CustomerClient customers) {
        // spotless:off
        // tag::pipeline[]
        return Pipeline.named("enrich_orders")
                .from(KafkaSource.from(config.source("orders")).json(OrderEvent.class))
                .<EnrichedOrder>mapAsync("enrich", order -> customers.lookup(order.customer()).thenApply(order::enrich))
                .to(KafkaSink.from(config.sink("enriched")).json());
        // end::pipeline[]
        // spotless:on
    }

    /** The same with a blocking client: {@code mapConcurrent} runs the calls on the stage's own threads. */
    public static Pipeline blockingPipeline(PipelineConfig config, CustomerClient customers) {
        // spotless:off
        // tag::blocking[]
        return Pipeline.named("enrich_orders")
                .from(KafkaSource.from(config.source("orders")).json(OrderEvent.class))
                .<EnrichedOrder>mapConcurrent("enrich", order -> order.enrich(customers.lookupBlocking(order.customer())))
                .to(KafkaSink.from(config.sink("enriched")).json());
        // end::blocking[]
        // spotless:on
    }
}
