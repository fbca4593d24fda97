/**
 * The sink SPI: {@link io.etl.core.sink.Sink}, {@link io.etl.core.sink.Encoder},
 * {@link io.etl.core.sink.SinkWriter} and {@link io.etl.core.sink.SealedBatch}; a sink whose destination may differ per
 * value is a {@link io.etl.core.sink.RoutableSink}.
 */
package io.etl.core.sink;
