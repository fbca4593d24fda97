/**
 * The runtime's command-line tools for a pipeline's Kafka clusters, reached with the pipeline YAML's connection and
 * security settings ({@code --config}) or {@code --brokers}: {@code topics}, {@code produce}, {@code consume},
 * {@code offsets} and {@code dead-letters}. {@link io.etl.runtime.tools.RecordFormat} is their extension point for
 * value formats ({@code produce --format}, {@code consume --format}).
 */
package io.etl.runtime.tools;
