package io.etl.kafka.sink.internal;

import io.etl.core.error.RecordException;
import io.etl.core.error.RetryableException;
import io.etl.core.record.Header;
import io.etl.core.sink.OpenWrite;
import io.etl.core.sink.SealedBatch;
import io.etl.core.sink.SinkContext;
import io.etl.kafka.common.internal.KafkaErrors;
import io.etl.kafka.common.internal.SharedClusterProbe;
import io.etl.kafka.sink.KafkaMessage;
import io.etl.kafka.sink.KafkaSinkConfig;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * Sends one attempt of a sealed batch into a producer, record by record on the calling thread, with a single
 * {@link BatchDelivery} callback, and bounds the wait for its delivery reports by {@code delivery_timeout} plus
 * {@link #REPORT_MARGIN}. It never waits: when the producer cannot take a record now (its buffer is full, or the
 * topic's metadata is not there yet: {@code send} gives up after {@code max.block.ms}), the rest of the batch, and
 * every later batch of the same shard, is handed over by the sink's timer thread with a short backoff, in order.
 * A record the client refuses on its own account is marked on the batch and the rest goes on. What an attempt's
 * outcome means is the writer's business: retried at least once, or the end of a transaction.
 *
 * <p>A batch's first attempt may also start before the batch is sealed ({@link #open}): each message is then offered
 * as the pipeline adds it, and what the producer did not take is handed over as above once the batch is sealed.
 *
 * <p>The deadlines are checked by one task every {@link #EXPIRY_CHECK} on the sink's timer, not by a task per
 * batch. Owns the sink's timer thread, which the writers also use for work that must not run on a producer thread.
 */
final class BatchSender {

    /** Extra wait beyond {@code delivery_timeout} before a batch without all its reports expires. */
    static final Duration REPORT_MARGIN = Duration.ofSeconds(5);

    /** How often the deadlines of the attempts waiting for reports are checked. */
    static final Duration EXPIRY_CHECK = Duration.ofSeconds(1);

    private static final long MIN_SEND_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long MAX_SEND_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final String sink;
    private final String runId;
    private final String topic;
    private final long deliveryTimeoutNanos;
    private final ScheduledThreadPoolExecutor timer;
    /** Attempts whose reports are not all in, oldest first; each removes itself when it completes. */
    private final Queue<BatchDelivery> outstanding = new ConcurrentLinkedQueue<>();
    /** Per shard, the batches the producer could not take yet, handed over in order by the timer. */
    private final Map<Integer, Backlog> backlogs = new ConcurrentHashMap<>();

    private volatile boolean closed;
    /** Size of the last batch sealed under an open attempt: how much room the next one starts with. A hint. */
    private int lastSealedSize = 64;

    BatchSender(KafkaSinkConfig config, SinkContext context) {
        this.sink = context.sink();
        this.runId = context.runId();
        this.topic = Destinations.label(config);
        this.deliveryTimeoutNanos = config.deliveryTimeout().toNanos();
        this.timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "etl-" + context.pipeline() + "-" + context.sink() + "-timer");
            t.setDaemon(true);
            return t;
        });
        this.timer.setRemoveOnCancelPolicy(true);
        long check = EXPIRY_CHECK.toNanos();
        this.timer.scheduleWithFixedDelay(this::expireOverdue, check, check, TimeUnit.NANOSECONDS);
    }

    /**
     * Offers every message of {@code batch} not refused in an earlier attempt to {@code producer} (now, or after the
     * shard's earlier batches once the producer has room), then returns the attempt's future: {@code completion}
     * completes it once every report is in; if they are not all in by the deadline, {@code expiry} gets it with a
     * {@link RetryableException} naming the missing reports.
     */
    CompletableFuture<Void> send(
            KafkaProducer<byte[], byte[]> producer,
            SealedBatch<KafkaMessage> batch,
            BatchDelivery.Completion completion,
            BatchDelivery.Expiry expiry) {
        return send(producer, batch, completion, expiry, null);
    }

    /**
     * {@link #send(KafkaProducer, SealedBatch, BatchDelivery.Completion, BatchDelivery.Expiry)} inside a transaction
     * whose first refused message claims {@code transactionRefusal} ({@link BatchDelivery#culprit()}).
     */
    CompletableFuture<Void> send(
            KafkaProducer<byte[], byte[]> producer,
            SealedBatch<KafkaMessage> batch,
            BatchDelivery.Completion completion,
            BatchDelivery.Expiry expiry,
            AtomicBoolean transactionRefusal) {
        int n = batch.messages().size();
        long now = System.nanoTime();
        BatchDelivery delivery =
                new BatchDelivery(n, completion, expiry, now + deliveryTimeoutNanos + REPORT_MARGIN.toNanos());
        if (transactionRefusal != null) {
            delivery.claimRefusalWith(transactionRefusal);
        }
        return dispatch(new Unsent(producer, batch, delivery, now + deliveryTimeoutNanos, 0));
    }

    /**
     * Hands over {@code unsent} now, or after what its shard's earlier batches still have to hand over; returns the
     * attempt's future, whose deadline is watched from now on.
     */
    private CompletableFuture<Void> dispatch(Unsent unsent) {
        int shard = unsent.batch.shard();
        Backlog backlog = backlogs.get(shard);
        if (backlog == null || !backlog.waiting) {
            handOver(unsent, backlog == null ? backlog(shard) : backlog);
        } else {
            backlog.add(unsent);
        }
        BatchDelivery delivery = unsent.delivery;
        CompletableFuture<Void> future = delivery.future();
        if (!future.isDone()) {
            outstanding.add(delivery);
            future.whenComplete((ok, error) -> outstanding.remove(delivery));
        }
        return future;
    }

    /**
     * Starts the first attempt of shard {@code shard}'s next batch before it is sealed ({@link OpenWrite}): each
     * message goes to {@code producer} as it is added. Null when the shard's earlier batches still wait to be handed
     * over (this one must not pass them) or the sink is closed. {@code completion} gets the sealed batch.
     */
    OpenWrite<KafkaMessage> open(KafkaProducer<byte[], byte[]> producer, int shard, SealedCompletion completion) {
        Backlog backlog = backlogs.get(shard);
        if (closed || backlog != null && backlog.waiting) {
            return null;
        }
        return new OpenAttempt(producer, lastSealedSize, completion);
    }

    /** What happens once every report of an attempt started before its batch was sealed is in. */
    interface SealedCompletion {
        void completed(SealedBatch<KafkaMessage> batch, BatchDelivery delivery, Throwable firstError);
    }

    /**
     * A first attempt under way while its batch is filled, on the pipeline thread: messages the producer takes at
     * once are sent as they come; at the first it cannot take, the rest waits for the sealed batch.
     */
    private final class OpenAttempt implements OpenWrite<KafkaMessage> {
        private final KafkaProducer<byte[], byte[]> producer;
        private final BatchDelivery delivery;
        /** The sealed batch; set before the sender's own count is released, so before the completion runs. */
        private volatile SealedBatch<KafkaMessage> batch;
        /** Messages the producer refused on their own account, by index, applied to the batch once sealed. */
        private List<Refused> refused;

        private int added;
        private boolean stopped;

        OpenAttempt(KafkaProducer<byte[], byte[]> producer, int capacity, SealedCompletion completion) {
            this.producer = producer;
            this.delivery = BatchDelivery.open(
                    (d, error) -> completion.completed(batch, d, error),
                    CompletableFuture::completeExceptionally,
                    capacity);
            delivery.sendingOn(Thread.currentThread());
        }

        @Override
        public boolean add(KafkaMessage message) {
            if (stopped || closed) {
                return false;
            }
            int i = added;
            Exception rejected;
            try {
                rejected = sendNow(producer, delivery, i, message);
            } catch (RuntimeException e) {
                // a closed or failed producer: the sealed batch's hand-over meets it again and writes the rest off
                stopped = true;
                return false;
            }
            if (rejected != null) {
                delivery.sending(i, null); // not taken: no future to keep
                if (!KafkaErrorClassifier.concernsOneRecord(rejected)) {
                    // buffer full, metadata not there yet, or worse: offered again from the sealed batch
                    stopped = true;
                    return false;
                }
                if (refused == null) {
                    refused = new ArrayList<>(2);
                }
                refused.add(new Refused(i, refusal(message, rejected)));
                delivery.skipped();
            }
            added = i + 1;
            return true;
        }

        @Override
        public CompletableFuture<Void> close(SealedBatch<KafkaMessage> sealed) {
            batch = sealed;
            if (refused != null) {
                for (Refused r : refused) {
                    sealed.reject(r.index, r.error);
                }
            }
            int n = sealed.messages().size();
            lastSealedSize = n;
            long now = System.nanoTime();
            delivery.sized(n, now + deliveryTimeoutNanos + REPORT_MARGIN.toNanos());
            return dispatch(new Unsent(producer, sealed, delivery, now + deliveryTimeoutNanos, added));
        }
    }

    private record Refused(int index, RecordException error) {}

    private Backlog backlog(int shard) {
        return backlogs.computeIfAbsent(shard, s -> new Backlog());
    }

    /** Hands over what the producer takes now; the rest waits in the shard's backlog for the timer. */
    private void handOver(Unsent unsent, Backlog backlog) {
        if (!unsent.offer(Thread.currentThread())) {
            backlog.add(unsent);
        }
    }

    private void expireOverdue() {
        long now = System.nanoTime();
        for (BatchDelivery d : outstanding) {
            if (!d.future().isDone() && now - d.expiresAtNanos() > 0) {
                long waited = deliveryTimeoutNanos + REPORT_MARGIN.toNanos();
                d.expire(new RetryableException("sink '" + sink + "': " + d.outstanding() + " of " + d.size()
                        + " delivery reports for topic '" + topic + "' missing after "
                        + Duration.ofNanos(waited).toMillis() + " ms"));
            }
        }
    }

    /** One attempt's messages from {@link #next} on, not yet taken by the producer. */
    private final class Unsent {
        private final KafkaProducer<byte[], byte[]> producer;
        private final SealedBatch<KafkaMessage> batch;
        private final BatchDelivery delivery;
        /** Past this ({@code System.nanoTime()}) a record the producer still cannot take fails the attempt. */
        private final long giveUpAtNanos;

        private int next;

        Unsent(
                KafkaProducer<byte[], byte[]> producer,
                SealedBatch<KafkaMessage> batch,
                BatchDelivery delivery,
                long giveUpAtNanos,
                int next) {
            this.producer = producer;
            this.batch = batch;
            this.delivery = delivery;
            this.giveUpAtNanos = giveUpAtNanos;
            this.next = next;
        }

        /**
         * Offers the messages from {@link #next} on, on {@code thread} (the current one); true when every message
         * was handed over or written off, false when the producer could not take one for now.
         */
        boolean offer(Thread thread) {
            delivery.sendingOn(thread);
            List<KafkaMessage> messages = batch.messages();
            int n = messages.size();
            int durable = batch.durablePrefix();
            for (int i = next; i < n; i++) {
                if (i < durable) {
                    // an earlier attempt made it durable: a retry starts after it
                    delivery.skipped();
                    continue;
                }
                if (batch.rejected(i)) {
                    // refused in an earlier attempt: its policy applies when the batch completes, it is not sent again
                    delivery.skipped();
                    continue;
                }
                Exception rejected;
                try {
                    rejected = sendNow(producer, delivery, i, messages.get(i));
                } catch (RuntimeException e) {
                    // a closed or failed producer, an interrupt: nothing more is sent in this attempt
                    delivery.abandon(n - i, e);
                    return done();
                }
                if (rejected == null) {
                    continue;
                }
                if (KafkaErrorClassifier.concernsOneRecord(rejected)) {
                    // the client refuses this record alone (larger than max.request.size): the rest goes on
                    delivery.sending(i, null);
                    delivery.refusedOnSend();
                    batch.reject(i, refusal(messages.get(i), rejected));
                    delivery.skipped();
                    continue;
                }
                if (!(rejected instanceof TimeoutException)
                        || System.nanoTime() - giveUpAtNanos > 0
                        || closed
                        || Thread.currentThread().isInterrupted()) {
                    delivery.abandon(n - i, rejected);
                    return done();
                }
                // buffer full or metadata not there yet: the same record is offered again later
                next = i;
                return false;
            }
            return done();
        }

        /** Writes off what was not handed over, as when the sink closes. */
        void abandon(Throwable cause) {
            delivery.abandon(batch.messages().size() - next, cause);
            done();
        }

        private boolean done() {
            delivery.sent();
            return true;
        }
    }

    /**
     * The batches of one shard that the producer could not take yet, in order. The shard's writing thread adds to
     * it; the timer hands them over, backing off while the producer still has no room.
     */
    private final class Backlog implements Runnable {
        private final ArrayDeque<Unsent> queue = new ArrayDeque<>();
        /** Something waits here: a later batch of the shard must queue behind it. */
        private volatile boolean waiting;

        private long backoffNanos = MIN_SEND_BACKOFF_NANOS;

        synchronized void add(Unsent unsent) {
            if (closed) {
                unsent.abandon(new RetryableException("sink '" + sink + "' is closed"));
                return;
            }
            queue.addLast(unsent);
            if (!waiting) {
                waiting = true;
                backoffNanos = MIN_SEND_BACKOFF_NANOS;
                schedule();
            }
        }

        private void schedule() {
            try {
                timer.schedule(this, backoffNanos, TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException closing) {
                abandonAll(new RetryableException("sink '" + sink + "' is closed"));
            }
        }

        /** On the timer: hands over in order what the producer takes now. */
        @Override
        public synchronized void run() {
            Unsent head;
            while ((head = queue.peekFirst()) != null) {
                if (closed) {
                    abandonAll(new RetryableException("sink '" + sink + "' is closed"));
                    return;
                }
                if (!head.offer(Thread.currentThread())) {
                    backoffNanos = Math.min(backoffNanos * 2, MAX_SEND_BACKOFF_NANOS);
                    schedule();
                    return;
                }
                queue.pollFirst();
                backoffNanos = MIN_SEND_BACKOFF_NANOS;
            }
            waiting = false;
        }

        synchronized void abandonAll(Throwable cause) {
            Unsent u;
            while ((u = queue.pollFirst()) != null) {
                u.abandon(cause);
            }
            waiting = false;
        }
    }

    /**
     * Sends message {@code index} of {@code delivery}'s attempt; returns the failure {@code send} reported on this
     * thread, when the producer did not take the record, or null. Throws what {@code send} throws.
     */
    private Exception sendNow(
            KafkaProducer<byte[], byte[]> producer, BatchDelivery delivery, int index, KafkaMessage message) {
        delivery.sending(index, producer.send(toRecord(message), delivery.callbackFor(index)));
        return delivery.takeRejected();
    }

    private ProducerRecord<byte[], byte[]> toRecord(KafkaMessage m) {
        // CHECKSTYLE.OFF: InlineFullyQualifiedName - Kafka's Header besides ours
        List<org.apache.kafka.common.header.Header> headers = null;
        // CHECKSTYLE.ON: InlineFullyQualifiedName
        if (!m.headers().isEmpty()) {
            headers = new ArrayList<>(m.headers().size());
            for (Header h : m.headers()) {
                headers.add(new RecordHeader(h.key(), h.value()));
            }
        }
        // a route's messages each name their topic
        return new ProducerRecord<>(Destinations.of(m, topic), m.partition(), null, m.key(), m.value(), headers);
    }

    /** The record error for message {@code m}, which the destination refused on its own account. */
    RecordException refusal(KafkaMessage m, Throwable cause) {
        Throwable e = KafkaErrors.unwrap(cause);
        return RecordException.of(
                RecordException.PRODUCE,
                "topic '" + Destinations.of(m, topic)
                        + "' refused the message: " + e.getClass().getSimpleName()
                        + (e.getMessage() == null ? "" : ": " + e.getMessage()),
                e);
    }

    /**
     * The outcome of a write that sends nothing, or {@code null} when the batch is to be sent: refused (retryably)
     * once the sink is closed, done at once when the batch is empty.
     */
    CompletableFuture<Void> unsent(SealedBatch<KafkaMessage> batch) {
        if (closed) {
            return CompletableFuture.failedFuture(new RetryableException("sink '" + sink + "' is closed"));
        }
        return batch.messages().isEmpty() ? CompletableFuture.completedFuture(null) : null;
    }

    /** The sink's timer thread. */
    ScheduledExecutorService timer() {
        return timer;
    }

    /** Whether the sink is closing. */
    boolean closed() {
        return closed;
    }

    /**
     * Closes the sink's sending: a send backing off gives up and new batches are refused, then {@code release} lets
     * the producer go (its last delivery reports may still use the timer), then the timer stops and the run's
     * cluster probes that no connector holds any more are closed.
     */
    void close(Runnable release) {
        closed = true;
        for (Backlog b : backlogs.values()) {
            b.abandonAll(new RetryableException("sink '" + sink + "' is closed"));
        }
        try {
            release.run();
        } finally {
            timer.shutdownNow();
            SharedClusterProbe.closeIdle(runId);
        }
    }
}
