package io.etl.examples.split;

import io.etl.core.Pipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.kafka.sink.KafkaSink;
import io.etl.kafka.source.KafkaSource;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The {@code kafka_to_kafka_split} example pipeline: read JSON orders from {@code orders}, drop test
 * orders, reshape them ({@code amount_cents} added, {@code notes} removed) and route each one by region
 * to {@code orders-eu}, {@code orders-us} or {@code orders-apac}; orders from any other region go to
 * {@code orders-unrouted}. Keys are kept; delivery is at-least-once.
 *
 * <pre>{@code
 * PipelineConfig config = PipelineConfig.parse(KafkaToKafkaSplit.defaultYaml());
 * PipelineResult result = KafkaToKafkaSplit.pipeline(config).run(config);   // blocks; SIGTERM drains
 * }</pre>
 *
 * <p>Section names in the YAML: source {@code orders}; sinks {@code eu}, {@code us}, {@code apac} and
 * {@code unrouted}. The docs quote the tagged regions of this file, and a test checks that they still do.
 */
public final class KafkaToKafkaSplit {

    /** The pipeline's name in code (the YAML's {@code pipeline.name} wins when set). */
    public static final String NAME = "kafka_to_kafka_split";
    /** The classpath resource holding the default configuration. */
    public static final String DEFAULT_CONFIG_RESOURCE = "/kafka_to_kafka_split.yaml";
    /** The source section's name. */
    public static final String SOURCE = "orders";
    /** The branches, in routing order; each is also the name of its sink section. */
    public static final List<String> REGIONS = List.of("eu", "us", "apac");
    /** The sink section receiving orders from any other region. */
    public static final String UNROUTED = "unrouted";
    /** The name of the filter stage that drops test orders (the {@code stage} tag of its metric). */
    public static final String DROP_TEST = "drop-test";

    private KafkaToKafkaSplit() {}

    /**
     * Builds the pipeline from {@code config}; nothing is started. Missing sections fail here with a
     * {@link io.etl.core.error.ConfigException}.
     */
    public static Pipeline pipeline(PipelineConfig config) {
        // spotless:off
        // tag::pipeline[]
        return Pipeline.named("kafka_to_kafka_split")
                .from(KafkaSource.from(config.source("orders")).json(Order.class))
                .filter("drop-test", order -> !order.isTest())
                .map("reshape", RoutedOrder::from)       // + amount_cents (half-up), - notes
                .split("by-region", split -> split
                        .branch("eu", o -> o.inRegion("eu"), KafkaSink.from(config.sink("eu")).json())
                        .branch("us", o -> o.inRegion("us"), KafkaSink.from(config.sink("us")).json())
                        .branch("apac", o -> o.inRegion("apac"), KafkaSink.from(config.sink("apac")).json())
                        .otherwise(KafkaSink.from(config.sink("unrouted")).json()))
                .build();
        // end::pipeline[]
        // spotless:on
    }

    /** The configuration shipped with the example ({@code kafka_to_kafka_split.yaml}), as text. */
    public static String defaultYaml() {
        try (InputStream in = KafkaToKafkaSplit.class.getResourceAsStream(DEFAULT_CONFIG_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(
                        "resource " + DEFAULT_CONFIG_RESOURCE + " is missing from the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + DEFAULT_CONFIG_RESOURCE, e);
        }
    }
}
