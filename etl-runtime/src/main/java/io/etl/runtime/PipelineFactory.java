package io.etl.runtime;

import io.etl.core.Pipeline;
import io.etl.core.config.PipelineConfig;

/**
 * Builds one named pipeline from its configuration; the runtime finds factories with
 * {@link java.util.ServiceLoader} and starts what they return. Register an implementation in
 * {@code META-INF/services/io.etl.runtime.PipelineFactory} of your jar; it needs a public no-argument
 * constructor.
 *
 * <pre>{@code
 * public final class OrdersSplitFactory implements PipelineFactory {
 *     public String name() { return "orders-split"; }
 *     public Pipeline create(PipelineConfig config) {
 *         return Pipeline.named("orders-split")
 *                 .from(KafkaSource.from(config.source("orders")).json(Order.class))
 *                 .to(KafkaSink.from(config.sink("out")).json())
 *                 .build();
 *     }
 * }
 * }</pre>
 *
 * <p>{@link #create} must do no I/O: it builds the definition (a missing section is a
 * {@link io.etl.core.error.ConfigException}, which the runtime reports as a configuration error); the
 * runtime starts the pipeline, watches it and stops it.
 */
public interface PipelineFactory {

    /** The name {@code --pipeline NAME} selects; unique among the factories on the class path. */
    String name();

    /** Builds the pipeline from {@code config}; nothing is started. */
    Pipeline create(PipelineConfig config);
}
