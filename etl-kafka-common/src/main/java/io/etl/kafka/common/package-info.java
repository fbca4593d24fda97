/**
 * Kafka plumbing shared by the Kafka source and the Kafka sink: the typed {@code security} section
 * ({@link io.etl.kafka.common.KafkaSecurityConfig}) and the bounded startup check
 * ({@link io.etl.kafka.common.ConnectivityCheck}). The checks applied to a client passthrough map and the
 * redacted logging of client properties are connector plumbing, in {@code io.etl.kafka.common.internal}.
 */
package io.etl.kafka.common;
