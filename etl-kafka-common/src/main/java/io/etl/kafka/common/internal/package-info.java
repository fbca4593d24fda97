/**
 * Internals of the Kafka connectors' shared plumbing: the start-up connectivity check and the probe of a cluster
 * shared by the connectors of one pipeline run, the exactly-once link between a Kafka source and the Kafka sinks of
 * its run, the cluster readiness inspection behind the runtime's {@code check} command, and the wording of
 * connection failures. Internal: no compatibility promise, anything here may change in any release.
 */
package io.etl.kafka.common.internal;
