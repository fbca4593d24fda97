package io.etl.kafka.sink;

import io.etl.core.config.SinkPoolConfig;
import io.etl.core.config.SinkSection;
import io.etl.kafka.sink.internal.KafkaSinkBuilderImpl;

/**
 * Entry point of the Kafka sink: one sink writes one topic through one idempotent, {@code acks=all}
 * producer; a batch completes only when every message's delivery report succeeded, which is what the
 * pipeline commits source offsets behind. Fan-out to several topics is the split terminal with one
 * sink per branch.
 *
 * <pre>{@code
 * PipelineConfig config = PipelineConfig.load(Path.of("pipeline.yaml"));
 * Pipeline.named("orders")
 *     .from(source)
 *     .to(KafkaSink.from(config.sink("out")).idempotencyKeyHeader().json())
 *     .run(config);
 * }</pre>
 */
public final class KafkaSink {

    /** The connector key under a sink entry: {@code sinks.<name>.kafka}. */
    public static final String CONNECTOR = "kafka";
    /** Header carrying {@code <source topic>:<partition>:<offset>:<output index>}. */
    public static final String IDEMPOTENCY_KEY_HEADER = "etl.idempotency-key";
    /** Envelope header: {@code upsert} or {@code delete}. */
    public static final String OPERATION_HEADER = "etl.operation";
    /** Envelope header: {@code <source topic>-<partition>@<offset>}. */
    public static final String SOURCE_HEADER = "etl.source";

    private KafkaSink() {
    }

    /**
     * A sink built from a loaded {@code sinks.<name>} entry whose connector is {@code kafka}.
     *
     * @throws io.etl.core.error.ConfigException when the entry is not a Kafka sink
     */
    public static KafkaSinkBuilder from(SinkSection section) {
        return new KafkaSinkBuilderImpl(section.name(), section.connector(KafkaSinkConfig.class), section.pool());
    }

    /** A sink configured in code. The configuration is checked like a loaded one. */
    public static KafkaSinkBuilder from(String name, KafkaSinkConfig config, SinkPoolConfig pool) {
        return new KafkaSinkBuilderImpl(name, config, pool);
    }
}
