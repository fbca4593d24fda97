/**
 * Kafka plumbing shared by the Kafka source and the Kafka sink: the typed {@code security} section
 * ({@link io.etl.kafka.common.KafkaSecurityConfig}), the checks applied to a client passthrough map
 * ({@link io.etl.kafka.common.ClientPassthrough}), the bounded startup check
 * ({@link io.etl.kafka.common.ConnectivityCheck}) and redacted logging of client properties
 * ({@link io.etl.kafka.common.ClientProperties}).
 */
package io.etl.kafka.common;
