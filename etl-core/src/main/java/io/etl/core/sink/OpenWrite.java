package io.etl.core.sink;

import java.util.concurrent.CompletableFuture;

/**
 * The first attempt of a batch that is still being filled: the pool hands each message over as the pipeline
 * encodes it, while its bytes are still in the processor's cache, instead of all at once when the batch is sealed.
 * Returned by {@link SinkWriter#openWrite(int)}; used on the pipeline thread only.
 *
 * <p>It ends with {@link #close(SealedBatch)}, which behaves as {@link SinkWriter#writeBatch} for the sealed batch:
 * its future completes normally once every message of the batch is durable. Later attempts of the same batch go
 * through {@code writeBatch}.
 *
 * @param <M> the sink's message type
 */
public interface OpenWrite<M> {

    /**
     * Hands over the batch's next message. Returns false when the writer cannot take it now (its client has no
     * room, for instance); the pool then adds no more, and {@link #close} hands over this message and the rest.
     */
    boolean add(M message);

    /**
     * The batch was sealed with the messages given to {@link #add} first, in that order, then any others: hands
     * over what was not taken yet, after what this shard's earlier batches still have to hand over, and returns
     * the attempt's outcome as {@link SinkWriter#writeBatch} does. Never blocks.
     */
    CompletableFuture<Void> close(SealedBatch<M> batch);
}
