/**
 * Implementation of the broker test kit. No compatibility promise: anything here may change or
 * disappear in any release; use {@link io.etl.testkit} instead.
 */
package io.etl.testkit.internal;
