/**
 * Internals of the schema registry kit: the choice of registry and the optional Testcontainers path.
 */
package io.etl.testkit.schema.internal;
