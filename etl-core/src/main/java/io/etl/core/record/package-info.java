/** The source metadata that travels with every value through a pipeline, and message headers. */
package io.etl.core.record;
