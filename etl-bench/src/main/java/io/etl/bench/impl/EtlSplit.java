package io.etl.bench.impl;

import io.etl.core.PipelineResult;
import io.etl.core.RunningPipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.examples.split.KafkaToKafkaSplit;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The etl contestant: the example's own pipeline ({@link KafkaToKafkaSplit#pipeline}) with the example's
 * own YAML ({@link KafkaToKafkaSplit#defaultYaml()}), only the broker, topics and group substituted
 * through the variables the YAML reads. Whatever tuning the example ships is what races.
 *
 * <p>Client properties (security) are not applied: the YAML has no security section, so the race runs
 * against plaintext brokers only.
 */
final class EtlSplit implements SplitImplementation {

    @Override
    public String name() {
        return Contestant.ETL.label();
    }

    @Override
    public Running start(String bootstrapServers, Map<String, String> clientProperties, RaceTopics topics) {
        Map<String, String> vars = new HashMap<>();
        vars.put("KAFKA_BROKERS", bootstrapServers);
        vars.put("GROUP_ID", topics.group());
        vars.put("ORDERS_TOPIC", topics.input());
        vars.put("ORDERS_EU_TOPIC", topics.eu());
        vars.put("ORDERS_US_TOPIC", topics.us());
        vars.put("ORDERS_APAC_TOPIC", topics.apac());
        vars.put("ORDERS_UNROUTED_TOPIC", topics.unrouted());
        PipelineConfig config = PipelineConfig.parse(KafkaToKafkaSplit.defaultYaml(), vars::get);
        RunningPipeline running = KafkaToKafkaSplit.pipeline(config).start(config, new SimpleMeterRegistry());
        return new Running() {
            @Override
            public Optional<Throwable> failure() {
                CompletableFuture<PipelineResult> result = running.result();
                if (!result.isDone()) {
                    return Optional.empty();
                }
                PipelineResult r = result.join();
                return Optional.of(r.failureCause().orElseGet(
                        () -> new IllegalStateException("pipeline stopped by itself: " + r.status())));
            }

            @Override
            public void close() {
                try {
                    running.stopAndWait(Duration.ofSeconds(30));
                } finally {
                    running.close();
                }
            }
        };
    }
}
