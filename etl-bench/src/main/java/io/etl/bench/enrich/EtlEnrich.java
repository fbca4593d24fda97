package io.etl.bench.enrich;

import io.etl.core.Pipeline;
import io.etl.core.RunningPipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.core.config.PipelineSection;
import io.etl.examples.enrich.CustomerClient;
import io.etl.examples.enrich.EnrichOrders;
import io.etl.examples.enrich.EnrichedOrder;
import io.etl.examples.enrich.OrderEvent;
import io.etl.kafka.sink.KafkaSink;
import io.etl.kafka.source.KafkaSource;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The etl contestants: the example's own pipelines ({@link EnrichOrders}) with the example's own YAML
 * ({@code enrich_orders.yaml}), the broker, topics, group and the stage's concurrency substituted through the
 * variables it reads; and the sequential {@code map} over the same client, the form a pipeline takes without
 * asynchronous stages.
 */
final class EtlEnrich {

    private EtlEnrich() {}

    /** Starts contestant {@code etl-map}, {@code etl-async} or {@code etl-concurrent}. */
    static RunningPipeline start(String contestant, String brokers, EnrichTopics topics, URI service, int concurrency) {
        Map<String, String> vars = Map.of(
                "KAFKA_BROKERS", brokers,
                "ORDERS_TOPIC", topics.input(),
                "ENRICHED_TOPIC", topics.output(),
                "DEAD_LETTER_TOPIC", topics.deadLetters(),
                "GROUP_ID", topics.group(),
                "ENRICH_CONCURRENCY", Integer.toString(concurrency));
        PipelineConfig config = PipelineConfig.parse(exampleYaml(), vars::get);
        CustomerClient client = CustomerClient.of(service);
        Pipeline pipeline = switch (contestant) {
            case "etl-async" -> EnrichOrders.pipeline(config, client);
            case "etl-concurrent" -> EnrichOrders.blockingPipeline(config, client);
            case "etl-map" -> {
                // no asynchronous stage: its settings would name a stage the pipeline does not have
                config = PipelineConfig.from(config)
                        .pipeline(PipelineSection.from(config.pipeline())
                                .stages(Map.of())
                                .build())
                        .build();
                yield sequential(config, client);
            }
            default -> throw new IllegalArgumentException("not an etl contestant: " + contestant);
        };
        return pipeline.start(config, new SimpleMeterRegistry());
    }

    /** The same enrichment as a plain {@code map}: one blocking call at a time per pipeline. */
    static Pipeline sequential(PipelineConfig config, CustomerClient customers) {
        return Pipeline.named("enrich_orders")
                .from(KafkaSource.from(config.source("orders")).json(OrderEvent.class))
                .<EnrichedOrder>map("enrich", order -> order.enrich(customers.lookupBlocking(order.customer())))
                .to(KafkaSink.from(config.sink("enriched")).json());
    }

    static String exampleYaml() {
        try (InputStream in = EnrichOrders.class.getResourceAsStream("/enrich_orders.yaml")) {
            if (in == null) {
                throw new IllegalStateException("enrich_orders.yaml is not on the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
