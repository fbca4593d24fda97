package io.etl.kafka.sink.internal;

import io.etl.core.error.RecordException;
import io.etl.core.error.RetryableException;
import io.etl.core.record.Header;
import io.etl.core.sink.SealedBatch;
import io.etl.core.sink.SinkContext;
import io.etl.kafka.common.internal.KafkaErrors;
import io.etl.kafka.common.internal.SharedClusterProbe;
import io.etl.kafka.sink.KafkaMessage;
import io.etl.kafka.sink.KafkaSinkConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BiConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * Sends one attempt of a sealed batch into a producer, record by record on the calling thread, with a single
 * {@link BatchDelivery} callback, and bounds the wait for its delivery reports by {@code delivery_timeout} plus
 * {@link #REPORT_MARGIN}. A full producer buffer (or metadata not there yet) is absorbed by a short, bounded backoff;
 * a record the client refuses on its own account is marked on the batch and the rest goes on. What an attempt's
 * outcome means is the writer's business: retried at least once, or the end of a transaction.
 *
 * <p>Owns the sink's timer thread, which the writers also use for work that must not run on a producer thread.
 */
final class BatchSender {

    /** Extra wait beyond {@code delivery_timeout} before a batch without all its reports expires. */
    static final Duration REPORT_MARGIN = Duration.ofSeconds(5);

    private static final long MAX_SEND_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final String sink;
    private final String runId;
    private final String topic;
    private final long deliveryTimeoutNanos;
    private final ScheduledThreadPoolExecutor timer;
    private volatile boolean closed;

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
    }

    /**
     * Offers every message of {@code batch} not refused in an earlier attempt to {@code producer}, then returns the
     * attempt's future: {@code completion} completes it once every report is in; if they are not all in by the
     * deadline, {@code expiry} gets it with a {@link RetryableException} naming the missing reports.
     */
    CompletableFuture<Void> send(
            KafkaProducer<byte[], byte[]> producer,
            SealedBatch<KafkaMessage> batch,
            BatchDelivery.Completion completion,
            BiConsumer<CompletableFuture<Void>, RetryableException> expiry) {
        return send(producer, batch, completion, expiry, null);
    }

    /**
     * {@link #send(KafkaProducer, SealedBatch, BatchDelivery.Completion, BiConsumer)} inside a transaction whose first
     * refused message claims {@code transactionRefusal} ({@link BatchDelivery#culprit()}).
     */
    CompletableFuture<Void> send(
            KafkaProducer<byte[], byte[]> producer,
            SealedBatch<KafkaMessage> batch,
            BatchDelivery.Completion completion,
            BiConsumer<CompletableFuture<Void>, RetryableException> expiry,
            AtomicBoolean transactionRefusal) {
        int n = batch.messages().size();
        BatchDelivery delivery = new BatchDelivery(n, Thread.currentThread(), completion);
        if (transactionRefusal != null) {
            delivery.claimRefusalWith(transactionRefusal);
        }
        long deadline = System.nanoTime() + deliveryTimeoutNanos;
        try {
            sendEach(producer, batch, delivery, deadline);
        } finally {
            delivery.sent();
        }
        CompletableFuture<Void> future = delivery.future();
        if (!future.isDone()) {
            long waitNanos = deliveryTimeoutNanos + REPORT_MARGIN.toNanos();
            ScheduledFuture<?> expiring = timer.schedule(
                    () -> expiry.accept(
                            future,
                            new RetryableException("sink '" + sink + "': " + delivery.outstanding() + " of " + n
                                    + " delivery reports for topic '" + topic + "' missing after "
                                    + Duration.ofNanos(waitNanos).toMillis() + " ms")),
                    waitNanos,
                    TimeUnit.NANOSECONDS);
            future.whenComplete((ok, error) -> expiring.cancel(false));
        }
        return future;
    }

    private void sendEach(
            KafkaProducer<byte[], byte[]> p, SealedBatch<KafkaMessage> batch, BatchDelivery delivery, long deadline) {
        List<KafkaMessage> messages = batch.messages();
        int n = messages.size();
        for (int i = 0; i < n; i++) {
            if (batch.rejected(i)) {
                // refused in an earlier attempt: its policy applies when the batch completes, it is not sent again
                delivery.skipped();
                continue;
            }
            ProducerRecord<byte[], byte[]> record = toRecord(messages.get(i));
            long backoff = TimeUnit.MILLISECONDS.toNanos(1);
            while (true) {
                try {
                    delivery.sending(i, p.send(record, delivery.callbackFor(i)));
                } catch (RuntimeException e) {
                    // a closed or failed producer, an interrupt: nothing more is sent in this attempt
                    delivery.abandon(n - i, e);
                    return;
                }
                Exception rejected = delivery.takeRejected();
                if (rejected == null) {
                    break;
                }
                if (KafkaErrorClassifier.concernsOneRecord(rejected)) {
                    // the client refuses this record alone (larger than max.request.size): the rest goes on
                    delivery.sending(i, null);
                    delivery.refusedOnSend();
                    batch.reject(i, refusal(messages.get(i), rejected));
                    delivery.skipped();
                    break;
                }
                if (!(rejected instanceof TimeoutException)
                        || System.nanoTime() - deadline > 0
                        || closed
                        || Thread.currentThread().isInterrupted()) {
                    delivery.abandon(n - i, rejected);
                    return;
                }
                // buffer full or metadata not there yet: back off briefly, then offer the same record again
                LockSupport.parkNanos(backoff);
                backoff = Math.min(backoff * 2, MAX_SEND_BACKOFF_NANOS);
            }
        }
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
        try {
            release.run();
        } finally {
            timer.shutdownNow();
            SharedClusterProbe.closeIdle(runId);
        }
    }
}
