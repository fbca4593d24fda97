/**
 * The {@code kafka_to_kafka_split} example: JSON orders from one topic, test orders dropped, each order
 * reshaped and routed by region to one topic per region. {@link io.etl.examples.split.KafkaToKafkaSplit}
 * builds the pipeline; {@link io.etl.examples.split.KafkaToKafkaSplitCommand} is its command line;
 * {@link io.etl.examples.split.SplitRun} is its demonstration run (sample orders, run until every order is
 * accounted for, summary); with {@code KAFKA_BROKERS} the command runs the runtime's service instead.
 */
package io.etl.examples.split;
