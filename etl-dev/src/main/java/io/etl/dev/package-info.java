/**
 * The development broker: {@link io.etl.dev.DevBroker}, a single-node Kafka broker on {@code localhost:9092} in
 * one command, for running pipelines on a development machine. Not a library: nothing of a pipeline depends on it.
 */
package io.etl.dev;
