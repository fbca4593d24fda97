/** The engine's own cost per record, measured without Kafka. */
package io.etl.bench.engine;
