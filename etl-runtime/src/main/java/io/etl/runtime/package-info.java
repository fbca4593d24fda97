/**
 * The etl launcher: runs a user's pipeline as a service process. A pipeline jar registers a
 * {@link io.etl.runtime.PipelineFactory} under {@code META-INF/services}; {@link io.etl.runtime.Main}
 * finds it, runs it until SIGTERM or SIGINT, drains it within {@code pipeline.shutdown_timeout}, serves
 * {@code /metrics}, {@code /health/live} and {@code /health/ready}, and exits with a code from
 * {@link io.etl.runtime.ExitCodes}.
 *
 * <pre>
 * java -cp etl-runtime.jar:my-pipeline.jar io.etl.runtime.Main run --config pipeline.yaml
 * </pre>
 */
package io.etl.runtime;
