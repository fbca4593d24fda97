/**
 * The Avro race: the split workload with Avro orders in the schema registry's wire format, etl against the
 * hand-written kafka-clients loop doing the same Avro decoding and encoding.
 */
package io.etl.bench.avro;
