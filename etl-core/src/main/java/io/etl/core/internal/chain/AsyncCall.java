package io.etl.core.internal.chain;

import io.etl.core.source.SourcePartition;

/**
 * One value in an asynchronous stage, from the moment it entered to the moment its result went on: its record,
 * the key it is ordered by, and where it is. Pipeline thread only; an {@link AsyncAttempt} carries each call's
 * outcome across threads.
 */
final class AsyncCall {

    final SuspendedRecord record;
    final Object value;
    /** The key it is ordered by in key order (topic and key bytes), or null. */
    final Object key;

    final SourcePartition partition;
    /** Calls made so far. */
    int attempts;
    /** Whether it holds one of the stage's slots (a call runs, or waits for its retry or its rate-limit permit). */
    boolean inFlight;
    /** Partition order: its call finished, it waits for the records before it. */
    boolean done;
    /** Its partition left this instance: whatever happens to its call is ignored. */
    boolean abandoned;

    Object result;
    Throwable error;

    /** Its neighbours among the values the stage holds ({@link HeldCalls}). */
    AsyncCall heldPrev;

    AsyncCall heldNext;

    AsyncCall(SuspendedRecord record, Object value, Object key, SourcePartition partition) {
        this.record = record;
        this.value = value;
        this.key = key;
        this.partition = partition;
    }
}
