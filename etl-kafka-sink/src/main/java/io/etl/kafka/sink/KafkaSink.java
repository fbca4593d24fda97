package io.etl.kafka.sink;

import io.etl.core.config.SinkPoolConfig;
import io.etl.core.config.SinkSection;
import io.etl.core.sink.RoutableSink;
import io.etl.core.sink.Sink;
import io.etl.kafka.sink.internal.KafkaSinkBuilderImpl;

/**
 * A {@link Sink} that writes one Kafka topic through one idempotent, {@code acks=all}
 * producer; a batch completes only when every message's delivery report succeeded, which is what the
 * pipeline commits source offsets behind. Fan-out to topics named in code is the split terminal with one
 * sink per branch; to a topic per record, a route, whose template is a section with a {@code route} block
 * instead of a {@code topic} ({@link RouteConfig}):
 * {@code .route("by-tenant", o -> "orders-" + o.tenant(), KafkaSink.from(config.sink("tenants")).json())}.
 *
 * <pre>{@code
 * PipelineConfig config = PipelineConfig.load(Path.of("pipeline.yaml"));
 * Pipeline.named("orders")
 *     .from(source)
 *     .to(KafkaSink.from(config.sink("out")).idempotencyKeyHeader().json())
 *     .run(config);
 * }</pre>
 *
 * @param <T> the value type the chosen encoder accepts
 */
public interface KafkaSink<T> extends RoutableSink<T, KafkaMessage> {

    /** The connector key under a sink entry: {@code sinks.<name>.kafka}. */
    String CONNECTOR = "kafka";
    /** Header carrying {@code <source topic>:<partition>:<offset>:<output index>}. */
    String IDEMPOTENCY_KEY_HEADER = "etl.idempotency-key";
    /** Envelope header: {@code upsert} or {@code delete}. */
    String OPERATION_HEADER = "etl.operation";
    /** Envelope header: {@code <source topic>-<partition>@<offset>}. */
    String SOURCE_HEADER = "etl.source";

    /**
     * A sink built from a loaded {@code sinks.<name>} entry whose connector is {@code kafka}.
     *
     * @throws io.etl.core.error.ConfigException when the entry is not a Kafka sink
     */
    static KafkaSinkBuilder from(SinkSection section) {
        return new KafkaSinkBuilderImpl(section.name(), section.connector(KafkaSinkConfig.class), section.pool());
    }

    /** A sink configured in code. The configuration is checked like a loaded one. */
    static KafkaSinkBuilder from(String name, KafkaSinkConfig config, SinkPoolConfig pool) {
        return new KafkaSinkBuilderImpl(name, config, pool);
    }

    /** The settings this sink was built from. */
    KafkaSinkConfig config();
}
