/**
 * The consumer behind {@link io.etl.kafka.source.KafkaSource}: configuration checks, client properties,
 * decoders, the rebalance listener and the startup connectivity check. Internal: no compatibility
 * promise.
 */
package io.etl.kafka.source.internal;
