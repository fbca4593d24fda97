/**
 * JMH micro-benchmarks of hot paths; run them from the shaded jar with {@code org.openjdk.jmh.Main}.
 */
package io.etl.bench.jmh;
