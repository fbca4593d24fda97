package io.etl.bench.avro;

import io.etl.bench.impl.RaceClientSettings;
import io.etl.core.Pipeline;
import io.etl.core.RunningPipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.examples.split.KafkaToKafkaSplit;
import io.etl.kafka.sink.KafkaSink;
import io.etl.kafka.source.KafkaSource;
import io.etl.schema.Avro;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Map;
import org.apache.avro.generic.GenericRecord;

/**
 * The etl contestant of the Avro race: the split example's pipeline shape and its shipped YAML (every tuning
 * setting as it is but the producer linger, which is the race's: {@link RaceClientSettings#forRace}), with Avro in
 * and out: a {@code schema_registry} block added to the source and each sink. Each order's status is checked once
 * (by the filter) and its branch worked out once (a split by key), as the loop does.
 */
final class AvroEtlSplit {

    private AvroEtlSplit() {}

    /** The example's YAML with {@code schema_registry: {url: ${SCHEMA_REGISTRY_URL}}} in every Kafka section. */
    static String yaml() {
        String yaml = RaceClientSettings.forRace(KafkaToKafkaSplit.defaultYaml());
        String out = yaml.replaceAll(
                "(?m)^    kafka:\\s*$", "    kafka:\n      schema_registry: {url: \"\\${SCHEMA_REGISTRY_URL}\"}");
        if (out.equals(yaml)) {
            throw new IllegalStateException("the example YAML no longer has the shape the Avro race edits");
        }
        return out;
    }

    static Pipeline pipeline(PipelineConfig config) {
        return Pipeline.named("avro_split")
                .from(KafkaSource.from(config.source("orders")).with(Avro.decoder(AvroOrders.ORDER)))
                .filter("drop-test", order -> !AvroOrders.isTest(order))
                .map("reshape", AvroOrders::reshape)
                .split(
                        "by-region",
                        AvroOrders::branch,
                        split -> split.branch("eu", 0, sink(config, "eu"))
                                .branch("us", 1, sink(config, "us"))
                                .branch("apac", 2, sink(config, "apac"))
                                .otherwise(sink(config, "unrouted")))
                .build();
    }

    private static KafkaSink<GenericRecord> sink(PipelineConfig config, String name) {
        return KafkaSink.from(config.sink(name)).with(Avro.<GenericRecord>encoder(AvroOrders.ROUTED));
    }

    /** Starts the pipeline on {@code vars} (the example's variables and {@code SCHEMA_REGISTRY_URL}). */
    static RunningPipeline start(Map<String, String> vars) {
        PipelineConfig config = PipelineConfig.parse(yaml(), vars::get);
        return pipeline(config).start(config, new SimpleMeterRegistry());
    }
}
