/**
 * Avro, Protobuf and JSON Schema for Kafka sources and sinks, in the Confluent wire format of a schema registry:
 * {@link io.etl.schema.Avro}, {@link io.etl.schema.Protobuf}, {@link io.etl.schema.JsonSchema}. The registry is
 * configured per connector, in the {@code schema_registry} block of its {@code kafka} section.
 */
package io.etl.schema;
