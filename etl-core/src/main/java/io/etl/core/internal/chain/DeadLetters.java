package io.etl.core.internal.chain;

import io.etl.core.error.DeadLetter;
import io.etl.core.error.DeadLetterHandler;
import io.etl.core.error.FatalException;
import io.etl.core.error.RecordException;
import io.etl.core.internal.checkpoint.PendingRecord;
import io.etl.core.internal.pool.SinkPool;
import io.etl.core.record.RecordMeta;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Where rejected records go under policy {@code dead_letter}: the {@code dead_letter} sink's pool (acknowledged,
 * retried and checkpointed like any output) or a {@link DeadLetterHandler} given in code. Records refused by a
 * sink's destination arrive on that sink's worker thread and wait in a queue until the pipeline thread
 * {@link #pump pumps} them, because only the pipeline thread may append to a pool.
 */
public final class DeadLetters {

    /** Dead letters a handler may hold unconfirmed before the pipeline stops taking new records. */
    static final int MAX_HANDLER_IN_FLIGHT = 10_000;

    private final String pipeline;
    private final SinkPool<DeadLetter, ?> pool;
    private final DeadLetterHandler handler;
    private final Consumer<Throwable> pipelineFailure;
    private final Runnable wakePipeline;
    private final ConcurrentLinkedQueue<Letter> handedOver = new ConcurrentLinkedQueue<>();
    /** Dead letters a handler given in code has not confirmed yet (the pool bounds its own). */
    private final AtomicInteger handlerInFlight = new AtomicInteger();

    private DeadLetters(
            String pipeline,
            SinkPool<DeadLetter, ?> pool,
            DeadLetterHandler handler,
            Consumer<Throwable> pipelineFailure,
            Runnable wakePipeline) {
        this.pipeline = pipeline;
        this.pool = pool;
        this.handler = handler;
        this.pipelineFailure = pipelineFailure;
        this.wakePipeline = wakePipeline;
    }

    /** Dead letters written by the {@code dead_letter} sink's pool. */
    public static DeadLetters toPool(
            String pipeline, SinkPool<DeadLetter, ?> pool, Consumer<Throwable> pipelineFailure, Runnable wakePipeline) {
        return new DeadLetters(pipeline, pool, null, pipelineFailure, wakePipeline);
    }

    /** Dead letters handed to a handler given in code. */
    public static DeadLetters toHandler(
            String pipeline, DeadLetterHandler handler, Consumer<Throwable> pipelineFailure, Runnable wakePipeline) {
        return new DeadLetters(pipeline, null, handler, pipelineFailure, wakePipeline);
    }

    /**
     * Dead-letters {@code source} now, taking a hold on {@code owner} until the dead letter is durable.
     * Pipeline thread.
     */
    void send(String stage, RecordMeta source, Object value, RecordException error, int attempts, PendingRecord owner) {
        owner.retain();
        write(new Letter(stage, source, error, attempts, owner, System.currentTimeMillis()), value);
    }

    /**
     * Queues a dead letter from another thread; {@code owner} already holds the hold it keeps until the dead
     * letter is durable.
     */
    void handOver(String stage, RecordMeta source, RecordException error, int attempts, PendingRecord owner) {
        handedOver.add(new Letter(stage, source, error, attempts, owner, System.currentTimeMillis()));
        wakePipeline.run();
    }

    /** Writes the dead letters other threads handed over. Pipeline thread; true when there were any. */
    public boolean pump() {
        Letter letter;
        boolean any = false;
        while ((letter = handedOver.poll()) != null) {
            any = true;
            write(letter, null);
        }
        return any;
    }

    /**
     * Whether a handler given in code holds so many unconfirmed dead letters that no new record should enter the
     * chain; the dead-letter pool applies backpressure of its own.
     */
    boolean full() {
        return handlerInFlight.get() >= MAX_HANDLER_IN_FLIGHT;
    }

    /** Whether dead letters wait to be pumped. */
    public boolean hasHandedOver() {
        return !handedOver.isEmpty();
    }

    /**
     * Writes one dead letter whose hold its owner already took; releases it when durable. {@code value} is what
     * reached the failed stage, for a handler given in code; null when it is no longer at hand.
     */
    private void write(Letter letter, Object value) {
        RecordMeta source = letter.source;
        PendingRecord owner = letter.owner;
        if (pool == null) {
            handlerInFlight.incrementAndGet();
            handler.deadLetter(source, value, letter.error).whenComplete((ok, err) -> {
                handlerInFlight.decrementAndGet();
                if (err == null) {
                    owner.release();
                } else {
                    failed(source, owner, err);
                }
            });
            return;
        }
        try {
            pool.offer(
                    new DeadLetter(pipeline, letter.stage, source, letter.error, letter.attempts, letter.timestamp),
                    source,
                    0,
                    owner);
        } catch (RuntimeException e) {
            failed(source, owner, e);
            return;
        }
        // the pool took its own hold for the message: the one taken for the dead letter is no longer needed
        owner.release();
    }

    private void failed(RecordMeta source, PendingRecord owner, Throwable err) {
        FatalException fatal = new FatalException(
                "dead letter for " + source.position() + " could not be stored: " + err.getMessage(), err);
        owner.fail(fatal);
        pipelineFailure.accept(fatal);
    }

    /** A dead letter to write: where and how its record failed, and the record whose hold it keeps. */
    private record Letter(
            String stage,
            RecordMeta source,
            RecordException error,
            int attempts,
            PendingRecord owner,
            long timestamp) {}
}
