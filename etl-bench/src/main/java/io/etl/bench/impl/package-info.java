/**
 * The race's contestants: the etl example pipeline, Kafka Streams, and a hand-written kafka-clients
 * loop, each behind {@link io.etl.bench.impl.SplitImplementation}. Public only so the harness and its
 * tests can start them; no compatibility promise.
 */
package io.etl.bench.impl;
