/**
 * W3C trace context handling of a running pipeline: propagation, and spans when OpenTelemetry is present.
 * Internal: no compatibility promise.
 */
package io.etl.core.internal.trace;
