/**
 * The pipeline DSL: {@link io.etl.core.Pipeline}, {@link io.etl.core.Stream} and
 * {@link io.etl.core.Split}.
 */
package io.etl.core;
