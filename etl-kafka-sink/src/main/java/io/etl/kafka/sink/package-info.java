/**
 * The Kafka sink: one topic per sink, written by one idempotent {@code acks=all} producer; a batch is
 * acknowledged only when every message's delivery report succeeded.
 *
 * <pre>{@code
 * KafkaSink<Object> eu = KafkaSink.from(config.sink("eu")).json();
 * }</pre>
 *
 * <p>Public types here never expose kafka-clients types; the implementation lives in
 * {@code io.etl.kafka.sink.internal}.
 */
package io.etl.kafka.sink;
