/**
 * The {@code enrich} race: orders that each need one call to a local HTTP service, handled by etl's sequential
 * {@code map}, {@code mapAsync} and {@code mapConcurrent}, Confluent's parallel-consumer and Kafka Streams.
 */
package io.etl.bench.enrich;
