package ${package};

import io.etl.core.Pipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.kafka.sink.KafkaSink;
import io.etl.kafka.source.KafkaSource;
import io.etl.runtime.PipelineFactory;

/**
 * How the runtime finds the pipeline: it loads every {@link PipelineFactory} listed in
 * {@code META-INF/services/io.etl.runtime.PipelineFactory} and calls {@link #create(PipelineConfig)}
 * with the YAML given to {@code run --config}.
 */
public final class AppPipelineFactory implements PipelineFactory {

    @Override
    public String name() {
        return AppPipeline.NAME;
    }

    /** Reads {@code source.input} as JSON {@link Event}s and writes them to {@code sinks.output} as JSON, keys kept. */
## tag::create[]
    @Override
    public Pipeline create(PipelineConfig config) {
        return AppPipeline.define(
                KafkaSource.from(config.source("input")).json(Event.class),
                KafkaSink.from(config.sink("output")).json())
                .build();
    }
## end::create[]
}
