package io.etl.core.sink;

import io.etl.core.error.RecordException;
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

    /**
     * Marks the message at {@code index} as refused by the destination for a reason that concerns that message
     * alone (for example too large for the topic, or invalid for it), so that the batch may still complete
     * normally: the refused message is then handed to the sink's {@code on_error} policy instead of counting as
     * durable, and later attempts of the batch skip it. Thread-safe; call it before completing the write.
     *
     * @param error the record error, reason {@link RecordException#PRODUCE}, with the destination's exception as cause
     */
    default void reject(int index, RecordException error) {
        throw new UnsupportedOperationException("this batch does not take per-message rejections");
    }

    /** Whether the message at {@code index} was refused in this or an earlier attempt; a writer skips it. */
    default boolean rejected(int index) {
        return false;
    }

    /**
     * Records, after an attempt that failed, that its first {@code count} messages are durable (each acknowledged
     * or refused on its own account), so that a later attempt need not write them again: the retry starts with the
     * first message that is not, and every later one is written again as before, which keeps each key's last write
     * its newest. Never lowers what an earlier attempt recorded. Thread-safe; call it before completing the write.
     * The default ignores it: the whole batch is written again.
     */
    default void durablePrefix(int count) {}

    /** How many messages at the head of the batch earlier attempts made durable; a writer skips them. */
    default int durablePrefix() {
        return 0;
    }
}
