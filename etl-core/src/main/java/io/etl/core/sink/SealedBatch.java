package io.etl.core.sink;

import java.util.List;

/**
 * An immutable batch of encoded messages for one sink shard. A {@link SinkWriter} writes it whole; the
 * pool retries it whole; the checkpointer counts its records as durable only when the write
 * completed normally.
 *
 * @param <M> the sink's message type
 */
public interface SealedBatch<M> {

    /** Name of the sink this batch belongs to. */
    String sink();

    /** Index of the shard that sealed it. */
    int shard();

    /** Per-shard sequence number, increasing in seal order. */
    long sequence();

    /** 1 for the first write, 2 for the first retry, and so on. */
    int attempt();

    /** The messages in the order they must be written. */
    List<M> messages();

    /** Number of messages. */
    default int size() {
        return messages().size();
    }

    /** Sum of the encoded sizes as reported by the encoder. */
    long bytes();
}
