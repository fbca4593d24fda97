package io.etl.examples.avro;

import io.etl.core.Pipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.runtime.PipelineFactory;

/** {@link AvroToAvro} for the runtime's service mode, as {@code etl-examples avro_to_avro} runs it with KAFKA_BROKERS. */
public final class AvroToAvroFactory implements PipelineFactory {

    @Override
    public String name() {
        return AvroToAvro.NAME;
    }

    @Override
    public Pipeline create(PipelineConfig config) {
        return AvroToAvro.pipeline(config);
    }
}
