/**
 * The Kafka consumer-group source: {@link io.etl.kafka.source.KafkaSource} (built from a
 * {@code source.<name>.kafka} section), its configuration record
 * {@link io.etl.kafka.source.KafkaSourceConfig}, and {@link io.etl.kafka.source.Decoder} for payload
 * formats of your own.
 *
 * <pre>{@code
 * Source<Order> orders = KafkaSource.from(config.source("orders")).json(Order.class);
 * }</pre>
 *
 * <p>No kafka-clients type appears in this package's signatures; the consumer itself lives in
 * {@code io.etl.kafka.source.internal}.
 */
package io.etl.kafka.source;
