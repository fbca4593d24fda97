package io.etl.core.source;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * What a source gets when the pipeline opens it.
 *
 * @param pipeline      the pipeline's name
 * @param listener      to be told about partition assignment changes
 * @param meterRegistry where the source registers its own meters
 */
public record SourceContext(String pipeline, PartitionListener listener, MeterRegistry meterRegistry) {
}
