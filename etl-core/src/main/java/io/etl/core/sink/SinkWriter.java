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

    /**
     * Whether {@link #writeBatch} returns without waiting for anything: it hands the messages to a client that is
     * itself asynchronous and batching (as the Kafka producer is), and never waits for room, a connection or an
     * acknowledgement. The pool then calls it on the pipeline thread as batches are sealed, and settles the
     * completed writes there too, with no worker thread in between. Such a writer keeps the order of one shard's
     * batches: when it cannot hand every message over at once (a full client buffer) it finishes handing them
     * over in the background before it sends any later batch of the same {@link SealedBatch#shard()}. The futures
     * it returns may complete on any thread.
     *
     * <p>The default, false, gives each shard a worker thread that calls {@link #writeBatch}, which may then block.
     */
    default boolean sendsWithoutBlocking() {
        return false;
    }

    /**
     * Starts the first attempt of shard {@code shard}'s next batch before the batch is sealed, so that its messages
     * are handed over one by one as they are encoded ({@link OpenWrite}); or null when this writer does not do that,
     * or cannot now (the shard's earlier batches still wait to be handed over). Called on the pipeline thread, only
     * for a writer that {@link #sendsWithoutBlocking()}, and only when the pool would write the batch at once were
     * it sealed now: nothing of the shard waits, no retry is under way. The default returns null.
     */
    default OpenWrite<M> openWrite(int shard) {
        return null;
    }

    /** Releases resources, waiting at most {@code timeout}. */
    default void close(Duration timeout) {}
}
