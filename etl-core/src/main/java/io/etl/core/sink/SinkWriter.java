package io.etl.core.sink;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * Writes sealed batches to an external system. The SPI a sink connector implements.
 *
 * <p>{@link #writeBatch} must complete normally only when every message of the batch is durable;
 * that completion is what the checkpointer commits source offsets behind. Failures complete the
 * future exceptionally with a {@link io.etl.core.error.RetryableException} (the pool writes the whole
 * batch again) or a {@link io.etl.core.error.FatalException} (the batch is abandoned and the pipeline
 * fails); any other exception counts as retryable. Shards of one sink may call it concurrently.
 *
 * @param <M> the message type produced by the sink's encoder
 */
public interface SinkWriter<M> {

    /** Starts writing the batch; never blocks for the batch's acknowledgements. */
    CompletableFuture<Void> writeBatch(SealedBatch<M> batch);

    /** Releases resources, waiting at most {@code timeout}. */
    default void close(Duration timeout) {}
}
