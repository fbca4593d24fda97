/**
 * The Kafka settings the Kafka source and sink share: the typed {@code security} section
 * ({@link io.etl.kafka.common.KafkaSecurityConfig}, with its TLS and SASL parts). Connector plumbing (the
 * start-up connectivity check, the exactly-once link between a Kafka source and the Kafka sinks of its run,
 * the checks applied to a client passthrough map, the redacted logging of client properties) is in
 * {@code io.etl.kafka.common.internal}.
 */
package io.etl.kafka.common;
