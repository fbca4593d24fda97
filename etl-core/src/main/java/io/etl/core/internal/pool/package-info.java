/** Sink pools: shards, batching, in-flight permits, retry and breaker. Internal: no compatibility promise. */
package io.etl.core.internal.pool;
