/**
 * The sink SPI: {@link io.etl.core.sink.Sink}, {@link io.etl.core.sink.Encoder},
 * {@link io.etl.core.sink.SinkWriter} and {@link io.etl.core.sink.SealedBatch}.
 */
package io.etl.core.sink;
