/**
 * The only classes that touch the OpenTelemetry API, loaded only when it is on the class path.
 * Internal: no compatibility promise.
 */
package io.etl.core.internal.trace.otel;
