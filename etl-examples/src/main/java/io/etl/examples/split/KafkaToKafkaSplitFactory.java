package io.etl.examples.split;

import io.etl.core.Pipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.runtime.PipelineFactory;

/**
 * Registers {@link KafkaToKafkaSplit} with the runtime under the name {@value KafkaToKafkaSplit#NAME}, so that
 * {@code java -cp etl-examples.jar io.etl.runtime.Main run --config kafka_to_kafka_split.yaml} runs it as a
 * service (listed in {@code META-INF/services/io.etl.runtime.PipelineFactory}).
 */
public final class KafkaToKafkaSplitFactory implements PipelineFactory {

    // spotless:off
    // tag::factory[]
    @Override
    public String name() {
        return KafkaToKafkaSplit.NAME;
    }

    @Override
    public Pipeline create(PipelineConfig config) {
        return KafkaToKafkaSplit.pipeline(config);      // builds only: no I/O, nothing started
    }
    // end::factory[]
    // spotless:on
}
