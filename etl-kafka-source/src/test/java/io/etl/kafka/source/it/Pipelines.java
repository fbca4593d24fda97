package io.etl.kafka.source.it;

import io.etl.core.Pipeline;
import io.etl.core.Split;
import io.etl.core.config.PipelineConfig;
import io.etl.kafka.sink.KafkaSink;
import io.etl.kafka.source.KafkaSource;
import java.net.URI;
import java.util.List;

/** The pipelines the tests run, in process or in a child JVM. */
final class Pipelines {

    private Pipelines() {}

    /**
     * By name: {@code split}, {@code copy}, {@code route}, {@code lines} ({@link OrderLines#pipeline}) or {@code dlq} ({@link DeadLetterOrders#pipeline}), or
     * {@code enrich@<service url>} ({@link KeyedOrders#enrich}).
     */
    static Pipeline named(String kind, PipelineConfig config) {
        if (kind.startsWith(KeyedOrders.ENRICH_KIND)) {
            return KeyedOrders.enrich(config, URI.create(kind.substring(KeyedOrders.ENRICH_KIND.length())));
        }
        return switch (kind) {
            case "split" -> split(config);
            case "copy" -> copy(config);
            case "dlq" -> DeadLetterOrders.pipeline(config);
            case "split-rejects" -> splitWithRejects(config);
            case "route" -> route(config);
            case "lines" -> OrderLines.pipeline(config);
            default -> throw new IllegalArgumentException("unknown pipeline kind " + kind);
        };
    }

    /**
     * The {@code kafka_to_kafka_split} shape: JSON orders, drop test orders, reshape, split by region to
     * the sinks {@code eu}, {@code us}, {@code apac}, anything else to {@code unrouted}.
     */
    static Pipeline split(PipelineConfig config) {
        return Pipeline.named("orders-split")
                .from(KafkaSource.from(config.source("orders")).json(Orders.Order.class))
                .filter("drop-test", o -> !o.isTest())
                .map("reshape", Orders.Order::reshape)
                .split("by-region", s -> byRegion(s, config));
    }

    /** Order {@code i} is rejected by the {@code check} stage of {@link #splitWithRejects}. */
    static boolean isRejected(int i) {
        return i % 50 == 7;
    }

    /**
     * {@link #split} with a {@code check} stage that throws for the orders {@link #isRejected} picks: with
     * {@code pipeline.on_error: dead_letter} they go to the dead-letter topic.
     */
    static Pipeline splitWithRejects(PipelineConfig config) {
        return Pipeline.named("orders-split-rejects")
                .from(KafkaSource.from(config.source("orders")).json(Orders.Order.class))
                .filter("drop-test", o -> !o.isTest())
                .map("check", o -> {
                    if (isRejected(Integer.parseInt(o.id().substring(2)))) {
                        throw new IllegalStateException("order " + o.id() + " is rejected");
                    }
                    return o;
                })
                .map("reshape", Orders.Order::reshape)
                .split("by-region", s -> byRegion(s, config));
    }

    /** The branches {@code eu}, {@code us}, {@code apac} by region, anything else to {@code unrouted}. */
    private static Split.End<Orders.Routed> byRegion(Split<Orders.Routed> split, PipelineConfig config) {
        Split<Orders.Routed> branches = split;
        for (String region : List.of("eu", "us", "apac")) {
            branches = branches.branch(
                    region,
                    r -> r.region().equals(region),
                    KafkaSink.from(config.sink(region)).json());
        }
        return branches.otherwise(KafkaSink.from(config.sink("unrouted")).json());
    }

    /** The topic order {@code region} is routed to by {@link #route}, in the run named {@code run}. */
    static String routedTopic(String run, String region) {
        return "routed-" + run + "-" + region;
    }

    /**
     * JSON orders, reshaped, routed by region to {@link #routedTopic} through the template sink {@code regions}; the
     * run's name is the pipeline section's {@code name}.
     */
    static Pipeline route(PipelineConfig config) {
        String run = config.pipeline().name();
        return Pipeline.named("orders-route")
                .from(KafkaSource.from(config.source("orders")).json(Orders.Order.class))
                .map("reshape", Orders.Order::reshape)
                .route(
                        "by-region",
                        r -> routedTopic(run, r.region()),
                        KafkaSink.from(config.sink("regions")).json());
    }

    /** JSON orders, reshaped, to the sink {@code out}. */
    static Pipeline copy(PipelineConfig config) {
        return Pipeline.named("orders-copy")
                .from(KafkaSource.from(config.source("orders")).json(Orders.Order.class))
                .map("reshape", Orders.Order::reshape)
                .to(KafkaSink.from(config.sink("out")).json());
    }
}
