package ${package};

import io.etl.core.Pipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.core.record.RecordMeta;
import io.etl.kafka.sink.KafkaMessage;
import io.etl.kafka.sink.KafkaSink;
import io.etl.kafka.source.KafkaSource;
import io.etl.runtime.PipelineFactory;
import java.nio.charset.StandardCharsets;

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

    /** Reads {@code source.input} as UTF-8 text and writes {@code sinks.output}, keeping each record's key. */
## tag::create[]
    @Override
    public Pipeline create(PipelineConfig config) {
        return AppPipeline.define(
                KafkaSource.from(config.source("input")).string(),
                KafkaSink.from(config.sink("output")).with((String value, RecordMeta meta) ->
                        KafkaMessage.of(meta.key(), value.getBytes(StandardCharsets.UTF_8))))
                .build();
    }
## end::create[]
}
