/**
 * The pipeline DSL: {@link io.etl.core.Pipeline}, {@link io.etl.core.RecordStream} and
 * {@link io.etl.core.Split}.
 */
package io.etl.core;
