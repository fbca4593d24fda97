package io.etl.core.sink;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * What a sink gets when the pipeline opens it.
 *
 * @param pipeline      the pipeline's name
 * @param sink          the sink's name
 * @param meterRegistry where the sink registers its own meters
 */
public record SinkContext(String pipeline, String sink, MeterRegistry meterRegistry) {
}
