/**
 * The {@code kafka_to_kafka_split} race: {@link io.etl.bench.SplitRace} (entry point, forks one JVM per
 * contestant), {@link io.etl.bench.RaceWorker} (the forked JVM), {@link io.etl.bench.RaceRunner} (times
 * one run by watching the broker) and the results table.
 */
package io.etl.bench;
