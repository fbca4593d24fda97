/**
 * End-to-end delivery tests on real brokers: a Kafka source, an operator chain and Kafka sinks, with
 * crashes, broker outages, scaling and poison input. {@link io.etl.kafka.source.it.PipelineProcess} runs a
 * pipeline in a child JVM for the tests that must kill it.
 */
package io.etl.kafka.source.it;
