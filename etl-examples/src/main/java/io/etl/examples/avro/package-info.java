/**
 * The {@code avro_to_avro} example: Avro payments in, Avro ledger entries out, both in the schema registry's
 * wire format.
 */
package io.etl.examples.avro;
