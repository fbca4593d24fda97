package io.etl.bench.impl;

import io.etl.core.PipelineResult;
import io.etl.core.RunningPipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.examples.split.KafkaToKafkaSplit;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The etl contestant: the example's own pipeline ({@link KafkaToKafkaSplit#pipeline}) with the example's
 * own YAML ({@link KafkaToKafkaSplit#defaultYaml()}), only the broker, topics and group substituted
 * through the variables the YAML reads, and its sinks' producer linger set to the race's
 * ({@link RaceClientSettings#forRace}). Every other setting the example ships is what races.
 *
 * <p>Client properties (security) are not applied: the YAML has no security section, so the race runs
 * against plaintext brokers only.
 */
final class EtlSplit implements SplitImplementation {

    /** Exactly-once commits at Kafka Streams' exactly-once commit interval. */
    static final String EXACTLY_ONCE_INTERVAL = "100ms";

    private final boolean exactlyOnce;

    EtlSplit() {
        this(false);
    }

    /** @param exactlyOnce run the example with {@code pipeline.delivery: exactly_once} */
    EtlSplit(boolean exactlyOnce) {
        this.exactlyOnce = exactlyOnce;
    }

    @Override
    public String name() {
        return exactlyOnce ? Contestant.ETL_EOS.label() : Contestant.ETL.label();
    }

    @Override
    public boolean transactional() {
        return exactlyOnce;
    }

    /**
     * The example's YAML with the race's client settings; in exactly-once mode with {@code delivery: exactly_once} and a checkpoint interval of
     * {@value #EXACTLY_ONCE_INTERVAL} (a transaction per checkpoint), everything else as shipped.
     */
    String yaml() {
        String yaml = RaceClientSettings.forRace(KafkaToKafkaSplit.defaultYaml());
        if (!exactlyOnce) {
            return yaml;
        }
        String out = yaml.replaceFirst("(?m)^pipeline:\\s*$", "pipeline:\n  delivery: exactly_once")
                .replaceFirst("(?m)^  interval: \\S+", "  interval: " + EXACTLY_ONCE_INTERVAL);
        if (!out.contains("delivery: exactly_once") || !out.contains("interval: " + EXACTLY_ONCE_INTERVAL)) {
            throw new IllegalStateException("the example YAML no longer has the shape the exactly-once race edits");
        }
        return out;
    }

    @Override
    public Running start(String bootstrapServers, Map<String, String> clientProperties, RaceTopics topics) {
        Map<String, String> vars = topics.exampleVariables(bootstrapServers);
        PipelineConfig config = PipelineConfig.parse(yaml(), vars::get);
        RunningPipeline running = KafkaToKafkaSplit.pipeline(config).start(config, new SimpleMeterRegistry());
        return new Running() {
            @Override
            public Optional<Throwable> failure() {
                CompletableFuture<PipelineResult> result = running.result();
                if (!result.isDone()) {
                    return Optional.empty();
                }
                PipelineResult r = result.join();
                return Optional.of(r.failureCause()
                        .orElseGet(() -> new IllegalStateException("pipeline stopped by itself: " + r.status())));
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
