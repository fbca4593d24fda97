/**
 * Pipelines quoted by the DSL guide ({@code docs/dsl.md}); compiled and built by a test so that the guide
 * cannot drift from the API.
 */
package io.etl.examples.dsl;
