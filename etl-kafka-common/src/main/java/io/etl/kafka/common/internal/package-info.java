/**
 * Internals of the Kafka connectors' shared plumbing: the cluster readiness inspection behind the runtime's
 * {@code check} command, the start-up connectivity probe shared by the connectors of one pipeline run, and
 * the wording of connection failures. Internal: no compatibility promise, anything here may change in any
 * release.
 */
package io.etl.kafka.common.internal;
