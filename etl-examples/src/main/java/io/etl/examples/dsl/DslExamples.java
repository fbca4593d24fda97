package io.etl.examples.dsl;

import io.etl.core.Pipeline;
import io.etl.core.PipelineResult;
import io.etl.core.config.BatchConfig;
import io.etl.core.config.PipelineConfig;
import io.etl.core.config.RetryConfig;
import io.etl.core.config.SinkPoolConfig;
import io.etl.core.error.DeadLetterHandler;
import io.etl.core.error.ErrorPolicy;
import io.etl.core.record.RecordMeta;
import io.etl.examples.split.Order;
import io.etl.examples.split.RoutedOrder;
import io.etl.kafka.sink.Compression;
import io.etl.kafka.sink.KafkaMessage;
import io.etl.kafka.sink.KafkaSink;
import io.etl.kafka.sink.KafkaSinkConfig;
import io.etl.kafka.source.KafkaSource;
import io.etl.kafka.source.KafkaSourceConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * Small pipelines that {@code docs/dsl.md} and {@code docs/getting-started.md} quote between
 * {@code tag::}/{@code end::} comments. They compile with the module, and a test builds each one against
 * {@code dsl-examples.yaml}, so the docs show code that works. None of them is run by the program.
 *
 * <pre>{@code
 * PipelineConfig config = PipelineConfig.load(Path.of("dsl-examples.yaml"));
 * DslExamples.allMatching(config).build();
 * }</pre>
 */
public final class DslExamples {

    private DslExamples() {}

    /** The smallest useful pipeline: copy one topic to another, bytes as they are, keys and headers kept. */
    public static PipelineResult copy(Path file) {
        // spotless:off
        // tag::copy[]
        PipelineConfig config = PipelineConfig.load(file);
        return Pipeline.named("copy-orders")
                .from(KafkaSource.from(config.source("orders")).bytes())
                .to(KafkaSink.from(config.sink("copy")).bytes())
                .run(config);                      // blocks until it fails or this thread is interrupted
        // end::copy[]
        // spotless:on
    }

    /** Every kind of operator, in one chain. */
    public static Pipeline operators(PipelineConfig config) {
        long cutoff = System.currentTimeMillis() - 86_400_000L;
        // spotless:off
        // tag::operators[]
        return Pipeline.named("orders-enriched")
                .from(KafkaSource.from(config.source("orders")).json(Order.class))
                .filter("not-test", order -> !order.isTest())                  // false: the record is done
                .filterRecord("last-day", (order, meta) -> meta.timestamp() >= cutoff)
                .map("reshape", RoutedOrder::from)                                // null: the record is done
                .peek("watch", order -> { })                                     // sees values, changes nothing
                .flatMap("twice", order -> List.of(order, order))                 // 0..n outputs per record
                .process("stamp", (order, meta, out) -> out.emit(order))         // value + meta in, 0..n out
                .to(KafkaSink.from(config.sink("out")).json());
        // end::operators[]
        // spotless:on
    }

    /** Error policies per stage, with a dead-letter handler in code (a dead_letter section needs none). */
    public static Pipeline errorPolicies(PipelineConfig config, DeadLetterHandler deadLetters) {
        // spotless:off
        // tag::error-policies[]
        return Pipeline.named("orders-checked")
                .deadLetter(deadLetters)            // or no code: a dead_letter section in the YAML
                .from(KafkaSource.from(config.source("orders")).json(Order.class))
                .map("reshape", RoutedOrder::from)
                .onError(ErrorPolicy.SKIP)          // an amount that does not fit: drop it and count it
                .filter("known-customer", order -> lookup(order.customer()))
                .onError(ErrorPolicy.DEAD_LETTER)   // the lookup threw: dead-letter the record
                .to(KafkaSink.from(config.sink("out")).json());
        // end::error-policies[]
        // spotless:on
    }

    /** A split where an order may go to several branches, and orders no branch takes are dropped. */
    public static Pipeline allMatching(PipelineConfig config) {
        // spotless:off
        // tag::split-all-matching[]
        return Pipeline.named("orders-audit")
                .from(KafkaSource.from(config.source("orders")).json(Order.class))
                .map("reshape", RoutedOrder::from)
                .split("audit", split -> split
                        .toAllMatching()            // every matching branch gets the order
                        .branch("large", o -> o.amountCents() >= 100_000, KafkaSink.from(config.sink("large")).json())
                        .branch("eu", o -> o.inRegion("eu"), KafkaSink.from(config.sink("eu")).json())
                        .dropUnmatched())           // small non-EU orders are done at once
                .build();
        // end::split-all-matching[]
        // spotless:on
    }

    /** A split by key: the region is computed once per order, whatever the number of branches. */
    public static Pipeline byKey(PipelineConfig config) {
        // spotless:off
        // tag::split-by-key[]
        return Pipeline.named("orders-by-market")
                .from(KafkaSource.from(config.source("orders")).json(Order.class))
                .map("reshape", RoutedOrder::from)
                .split("by-market", o -> o.region().toLowerCase(Locale.ROOT), split -> split
                        .branch("eu", "eu", KafkaSink.from(config.sink("eu")).json())
                        .branch("americas", List.of("us", "ca", "br"), KafkaSink.from(config.sink("americas")).json())
                        .otherwise(KafkaSink.from(config.sink("other")).json()))
                .build();
        // end::split-by-key[]
        // spotless:on
    }

    /** A sink that chooses its own key and headers. */
    public static Pipeline customMessages(PipelineConfig config) {
        // spotless:off
        // tag::custom-encoder[]
        return Pipeline.named("orders-by-customer")
                .from(KafkaSource.from(config.source("orders")).json(Order.class))
                .map("reshape", RoutedOrder::from)
                .to(KafkaSink.from(config.sink("out")).with((RoutedOrder o, RecordMeta meta) ->
                        KafkaMessage.builder()
                                .key(o.customer())                       // re-keyed by customer
                                .header("region", o.region())
                                .value(o.id())
                                .build()));
        // end::custom-encoder[]
        // spotless:on
    }

    /** Each order to its region's topic, opened (and created) on first use from one template section. */
    public static Pipeline routed(PipelineConfig config) {
        // spotless:off
        // tag::route[]
        return Pipeline.named("orders-by-region")
                .from(KafkaSource.from(config.source("orders")).json(Order.class))
                .map("reshape", RoutedOrder::from)
                .route("by-region", o -> "orders-" + o.region(), KafkaSink.from(config.sink("regions")).json())
                .build();
        // end::route[]
        // spotless:on
    }

    /** A lookup that may fail for a while, tried again later through the retry topics while the others go on. */
    public static Pipeline retriedLater(PipelineConfig config) {
        // spotless:off
        // tag::retry-topics[]
        return Pipeline.named("orders-checked-later")
                .from(KafkaSource.from(config.source("orders")).json(Order.class))
                .filter("known-customer", order -> lookup(order.customer()))
                .onError(ErrorPolicy.RETRY)         // the lookup threw: again after each delay of the retry section
                .map("reshape", RoutedOrder::from)
                .to(KafkaSink.from(config.sink("out")).json());
        // end::retry-topics[]
        // spotless:on
    }

    /** Connectors configured in code instead of a YAML file: builders check every value as YAML loading does. */
    public static Pipeline configuredInCode(String brokers) {
        // spotless:off
        // tag::config-in-code[]
        KafkaSourceConfig orders = KafkaSourceConfig.custom()
                .brokers(brokers)
                .topics("orders")
                .groupId("orders-eu")
                .maxPollRecords(500)
                .build();
        KafkaSinkConfig eu = KafkaSinkConfig.custom()
                .brokers(brokers)
                .topic("orders-eu")
                .compression(Compression.LZ4)
                .build();
        SinkPoolConfig pool = SinkPoolConfig.custom()
                .shards(4)                                  // 1 to 256, checked here
                .batch(BatchConfig.custom().maxRecords(500).linger(Duration.ofMillis(5)).build())
                .retry(RetryConfig.custom().maxAttempts(10).build())
                .build();
        return Pipeline.named("orders-in-code")
                .from(KafkaSource.from("orders", orders, ErrorPolicy.SKIP).json(Order.class))
                .filter("eu-only", o -> o.inRegion("eu"))
                .to(KafkaSink.from("eu", eu, pool).json())
                .build();
        // end::config-in-code[]
        // spotless:on
    }

    private static boolean lookup(String customer) {
        if (customer == null) {
            throw new IllegalArgumentException("order has no customer");
        }
        return true;
    }
}
