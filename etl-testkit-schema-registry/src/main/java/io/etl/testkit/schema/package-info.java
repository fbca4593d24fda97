/**
 * A schema registry for tests and local development: {@link io.etl.testkit.schema.SchemaRegistryServer} speaks
 * the Confluent REST API over real HTTP, in memory.
 */
package io.etl.testkit.schema;
