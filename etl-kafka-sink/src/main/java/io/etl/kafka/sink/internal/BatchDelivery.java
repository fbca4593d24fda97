package io.etl.kafka.sink.internal;

import io.etl.core.error.RetryableException;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * The one callback object of one batch attempt: counts delivery reports down and completes when the last
 * one is in. The first error decides the outcome, but the batch completes only after every report (or
 * after the messages it never sent are written off), so a retry never overlaps the failing attempt.
 *
 * <p>{@code KafkaProducer.send} reports some failures (a full buffer, metadata not available within
 * {@code max.block.ms}, a record too large for the client) by calling the callback on the sending thread
 * before it returns. Those are not counted: they are kept for the sender, which may back off and send the
 * same record again ({@link #takeRejected()}).
 *
 * <p>The sender holds one count of its own until it has offered every message ({@link #sent()}), so the batch
 * never completes while {@link #futures()} is still being filled. Those per-message futures tell, after a
 * failed attempt, which messages the broker refused on their own account. The messages may be offered by more
 * than one thread in turn (the caller of {@code writeBatch}, then the sink's timer when the producer's buffer was
 * full), never by two at once; {@link #sendingOn} names the one offering now.
 *
 * <p>Inside a transaction the per-message futures cannot tell that: once the brokers refuse one message, the
 * producer fails the messages it still holds with the same exception. There each message gets a callback of its own
 * ({@link #callbackFor}), and the first message of the transaction reported refused claims the transaction's
 * {@code refusal} flag: it is the one that doomed the transaction ({@link #culprit()}); the producer reports it
 * before the messages it fails with it.
 *
 * <p>An attempt may start before its batch is sealed ({@link #open}): its messages are offered as they come, and the
 * number of reports to wait for is fixed when the batch is sealed ({@link #sized}).
 */
final class BatchDelivery implements Callback {

    /** What happens once every report is in. */
    interface Completion {
        void completed(BatchDelivery delivery, Throwable firstError);
    }

    /** What happens when the reports are not all in by the deadline. */
    interface Expiry {
        void expired(CompletableFuture<Void> future, RetryableException error);
    }

    /** The count an open attempt starts with: more than any batch has messages, until {@link #sized}. */
    private static final int OPEN = 1 << 30;

    private final AtomicInteger remaining;
    private final AtomicReference<Throwable> firstError = new AtomicReference<>();
    private final CompletableFuture<Void> future = new CompletableFuture<>();
    private final Completion completion;
    private final Expiry expiry;
    private volatile long expiresAtNanos;
    private volatile int size;
    private volatile Future<RecordMetadata>[] futures;
    private volatile Thread sender;
    private Exception rejected;
    /** Why messages were written off unsent (the first such reason); null while none was. */
    private volatile Throwable abandonCause;
    /** Inside a transaction: claimed by the first refused message of the transaction; null otherwise. */
    private AtomicBoolean refusal;

    private volatile int culprit = -1;
    private volatile Exception culpritError;

    /**
     * @param expiresAtNanos when ({@code System.nanoTime()}) the reports still missing make the attempt expire
     */
    @SuppressWarnings("unchecked")
    BatchDelivery(int size, Completion completion, Expiry expiry, long expiresAtNanos) {
        this.size = size;
        this.futures = new Future[size];
        this.remaining = new AtomicInteger(size + 1);
        this.completion = completion;
        this.expiry = expiry;
        this.expiresAtNanos = expiresAtNanos;
    }

    /** An attempt whose messages are offered before their number is known; {@link #sized} tells it. */
    @SuppressWarnings("unchecked")
    private BatchDelivery(Completion completion, Expiry expiry, int capacity) {
        this.size = -1;
        this.futures = new Future[capacity];
        this.remaining = new AtomicInteger(OPEN);
        this.completion = completion;
        this.expiry = expiry;
        this.expiresAtNanos = Long.MAX_VALUE;
    }

    /** An attempt started before its batch was sealed, room for {@code capacity} messages to begin with. */
    static BatchDelivery open(Completion completion, Expiry expiry, int capacity) {
        return new BatchDelivery(completion, expiry, Math.max(1, capacity));
    }

    /**
     * The open attempt's batch was sealed with {@code n} messages: from now on it counts as one of that size, the
     * sender's own count still held, and its reports are missing once {@code expiresAtNanos} passed (counted from the
     * seal, so that the batch's last messages get as long as any other). Sender only, once.
     */
    void sized(int n, long expiresAtNanos) {
        this.expiresAtNanos = expiresAtNanos;
        Future<RecordMetadata>[] f = futures;
        if (f.length != n) {
            futures = Arrays.copyOf(f, n);
        }
        size = n;
        countDown(OPEN - (n + 1));
    }

    /** The thread about to offer messages; a failure {@code send} reports on it is a refusal to accept. */
    void sendingOn(Thread thread) {
        this.sender = thread;
    }

    long expiresAtNanos() {
        return expiresAtNanos;
    }

    /** Ends a wait that outlived its deadline: the writer decides what the missing reports mean. */
    void expire(RetryableException error) {
        expiry.expired(future, error);
    }

    @Override
    public void onCompletion(RecordMetadata metadata, Exception exception) {
        if (exception != null) {
            if (Thread.currentThread() == sender && rejected == null) {
                // reported inside send(): the record was not accepted; the sender decides
                rejected = exception;
                return;
            }
            firstError.compareAndSet(null, exception);
        }
        if (remaining.decrementAndGet() == 0) {
            completion.completed(this, firstError.get());
        }
    }

    /**
     * Inside a transaction: the flag the first message of the transaction that the destination refuses on its own
     * account claims. Sender only, before the first message is offered.
     */
    void claimRefusalWith(AtomicBoolean transactionRefusal) {
        this.refusal = transactionRefusal;
    }

    /** The callback to send message {@code index} with: this one, or inside a transaction one that knows the index. */
    Callback callbackFor(int index) {
        AtomicBoolean claim = refusal;
        if (claim == null) {
            return this;
        }
        return (metadata, exception) -> {
            if (exception != null
                    && Thread.currentThread() != sender
                    && KafkaErrorClassifier.concernsOneRecord(exception)
                    && !claim.get()
                    && claim.compareAndSet(false, true)) {
                culpritError = exception;
                culprit = index;
            }
            onCompletion(metadata, exception);
        };
    }

    /**
     * {@code send} itself refused a message on its own account, which the sender marks: inside a transaction that
     * refusal dooms it, and the messages the producer fails with the same error afterwards claim nothing.
     */
    void refusedOnSend() {
        AtomicBoolean claim = refusal;
        if (claim != null) {
            claim.set(true);
        }
    }

    /**
     * Inside a transaction, the index of the message whose refusal by the destination doomed it, or -1; read once
     * every report is in.
     */
    int culprit() {
        return culprit;
    }

    /** Why {@link #culprit()} was refused. */
    Exception culpritError() {
        return culpritError;
    }

    /** The failure {@code send} just reported synchronously, or null when the record was accepted. Sender only. */
    Exception takeRejected() {
        Exception r = rejected;
        rejected = null;
        return r;
    }

    /** Writes off {@code count} messages that will never get a report because they were not sent. */
    void abandon(int count, Throwable cause) {
        Throwable why = cause != null ? cause : new RetryableException("messages of the attempt were not sent");
        if (abandonCause == null) {
            abandonCause = why;
        }
        firstError.compareAndSet(null, why);
        countDown(count);
    }

    /**
     * Why messages were written off unsent, or null when none was: kept apart from the first error, which may be a
     * message the destination refused on its own account before the rest could not be sent.
     */
    Throwable abandonCause() {
        return abandonCause;
    }

    /** A message not sent on purpose (refused in an earlier attempt, or refused by {@code send} itself). */
    void skipped() {
        countDown(1);
    }

    /** The sender has offered every message (or written the rest off): its own count is released. */
    void sent() {
        countDown(1);
    }

    private void countDown(int count) {
        if (remaining.addAndGet(-count) == 0) {
            completion.completed(this, firstError.get());
        }
    }

    /** Keeps what {@code send} returned for message {@code index}. Sender only, before {@link #sent()}. */
    void sending(int index, Future<RecordMetadata> future) {
        Future<RecordMetadata>[] f = futures;
        if (index >= f.length) {
            f = Arrays.copyOf(f, Math.max(index + 1, f.length * 2));
            futures = f;
        }
        f[index] = future;
    }

    /** Per-message futures; null for messages never sent. Complete only once the producer finished their batches. */
    Future<RecordMetadata>[] futures() {
        return futures;
    }

    /** Reports still outstanding. */
    int outstanding() {
        return Math.max(0, remaining.get() - 1);
    }

    int size() {
        return size;
    }

    CompletableFuture<Void> future() {
        return future;
    }
}
