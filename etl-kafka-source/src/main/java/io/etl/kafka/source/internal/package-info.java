/**
 * The consumer behind {@link io.etl.kafka.source.KafkaSource}: configuration checks, consumer settings,
 * decoders, the rebalance handler, the source's meters and error classification, and the startup
 * connectivity check. Internal: no compatibility promise.
 */
package io.etl.kafka.source.internal;
