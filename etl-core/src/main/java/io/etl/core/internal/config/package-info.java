/**
 * Loading of {@link io.etl.core.config.PipelineConfig}: YAML to a tree, interpolation of
 * {@code ${VAR}} placeholders inside scalar values, strict binding of each section to its record,
 * constraint checks, and collection of every problem into one {@link io.etl.core.error.ConfigException}.
 *
 * <p>This is an internal package: its types carry no compatibility promise and may change in any
 * release. Use {@link io.etl.core.config.PipelineConfig#load} and {@link io.etl.core.config.PipelineConfig#parse}.
 */
package io.etl.core.internal.config;
