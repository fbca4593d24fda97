/**
 * {@link io.etl.testkit.driver.PipelineTestDriver}: run a pipeline in-JVM with no broker, pipe records in,
 * read what each sink got, inject sink faults, and read committed offsets.
 */
package io.etl.testkit.driver;
