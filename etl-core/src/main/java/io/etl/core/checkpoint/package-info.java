/**
 * The checkpoint SPI for exactly-once delivery: {@link io.etl.core.checkpoint.TransactionalCheckpoint}, which
 * connectors implement together, and {@link io.etl.core.checkpoint.RunContext}, through which the source and
 * the sinks of one run find each other without the core knowing what they exchange.
 */
package io.etl.core.checkpoint;
