/**
 * Implementation of the Kafka sink: producer settings, encoders, the batch writer and its delivery
 * accounting, error classification, topic creation and producer metrics. No compatibility promise:
 * anything here may change in any release.
 */
package io.etl.kafka.sink.internal;
