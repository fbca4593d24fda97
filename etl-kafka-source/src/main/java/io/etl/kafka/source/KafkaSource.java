package io.etl.kafka.source;

import io.etl.core.config.SourceSection;
import io.etl.core.error.ErrorPolicy;
import io.etl.core.source.Source;
import io.etl.kafka.source.internal.KafkaSourceBuilderImpl;

/**
 * A {@link Source} that reads Kafka topics as a member of a consumer group. Records keep their key and
 * headers in {@link io.etl.core.record.RecordMeta}; offsets are committed only behind durable output, on
 * the pipeline thread; backpressure pauses the assigned partitions while the consumer keeps polling, so
 * the group never evicts a slow pipeline.
 *
 * <pre>{@code
 * PipelineConfig config = PipelineConfig.load(Path.of("pipeline.yaml"));
 * Pipeline.named("orders-split")
 *     .from(KafkaSource.from(config.source("orders")).json(Order.class))
 *     .filter("drop-test", o -> !o.isTest())
 *     .to(KafkaSink.from(config.sink("out")).json())
 *     .run(config);
 * }</pre>
 *
 * @param <T> the decoded value type
 */
public interface KafkaSource<T> extends Source<T> {

    /**
     * Starts building a source from a {@code source.<name>.kafka} section; its {@code on_error} becomes the
     * decode-error policy.
     *
     * @throws io.etl.core.error.ConfigException when the section is not a Kafka section
     */
    static KafkaSourceBuilder from(SourceSection section) {
        return new KafkaSourceBuilderImpl(
                section.name(), section.connector(KafkaSourceConfig.class), section.onError());
    }

    /**
     * Starts building a source from a configuration made in code.
     *
     * @param name    the source's name (metric tag, log and error context)
     * @param config  the Kafka settings
     * @param onError what a record that fails to decode does
     */
    static KafkaSourceBuilder from(String name, KafkaSourceConfig config, ErrorPolicy onError) {
        return new KafkaSourceBuilderImpl(name, config, onError);
    }

    /** The settings this source was built from. */
    KafkaSourceConfig config();
}
