package io.etl.kafka.sink.internal;

import io.etl.core.config.Durations;
import io.etl.core.error.ConfigException;
import io.etl.core.error.EtlException;
import io.etl.core.error.FatalException;
import io.etl.core.error.RecordException;
import io.etl.core.error.RetryableException;
import io.etl.core.metrics.EtlMetrics;
import io.etl.core.record.Header;
import io.etl.core.sink.SealedBatch;
import io.etl.core.sink.SinkContext;
import io.etl.core.sink.SinkWriter;
import io.etl.kafka.common.internal.AdminSettings;
import io.etl.kafka.common.internal.ClientPrincipal;
import io.etl.kafka.common.internal.ClientProperties;
import io.etl.kafka.common.internal.ConnectivityCheck;
import io.etl.kafka.common.internal.KafkaErrors;
import io.etl.kafka.common.internal.SharedClusterProbe;
import io.etl.kafka.common.internal.TopicProbe;
import io.etl.kafka.sink.KafkaMessage;
import io.etl.kafka.sink.KafkaSinkConfig;
import io.micrometer.core.instrument.Tags;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes sealed batches with a {@link KafkaProducer} shared by the sink's shards, and by the other Kafka sinks
 * of the same pipeline run whose producer settings are identical ({@link SharedProducer}). A batch is sent
 * record by record into the producer (which batches on its own, by {@code producer_linger} and {@code batch.size})
 * with a single {@link BatchDelivery} callback; its future completes when every report is in. A full
 * producer buffer is absorbed by a short, bounded backoff on the calling worker.
 */
final class KafkaSinkWriter implements SinkWriter<KafkaMessage> {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaSinkWriter.class);
    /** Extra wait beyond {@code delivery_timeout} before a batch without all its reports fails retryably. */
    static final Duration REPORT_MARGIN = Duration.ofSeconds(5);

    private static final long MAX_SEND_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    private static final Duration TOPIC_CHECK_TIMEOUT = Duration.ofSeconds(5);

    private final KafkaSinkConfig config;
    private final String path;
    private final String topic;
    private final SinkContext context;
    private final Map<String, Object> connection;
    private final KafkaErrorClassifier classifier;
    private final ScheduledThreadPoolExecutor timer;
    private final long deliveryTimeoutNanos;
    private SharedProducer shared;
    /** Exactly-once mode: the run's transaction, whose producer every sink shares; null at least once. */
    private KafkaTransaction transaction;

    private volatile boolean closed;
    /** The topic's max.message.bytes as the start-up check read it, when it could. */
    private OptionalLong topicMaxMessageBytes = OptionalLong.empty();

    private KafkaSinkWriter(
            KafkaSinkConfig config,
            String path,
            SinkContext context,
            Map<String, Object> connection,
            String principal) {
        this.config = config;
        this.path = path;
        this.topic = config.topic();
        this.context = context;
        this.connection = connection;
        this.classifier = new KafkaErrorClassifier(topic, principal);
        this.deliveryTimeoutNanos = config.deliveryTimeout().toNanos();
        this.timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "etl-" + context.pipeline() + "-" + context.sink() + "-timer");
            t.setDaemon(true);
            return t;
        });
        this.timer.setRemoveOnCancelPolicy(true);
    }

    /**
     * Checks the brokers, creates the listed topics, checks the sink's topic, then creates the producer
     * and fetches the topic's metadata; all bounded by {@code startup_timeout}.
     *
     * @throws ConfigException naming the brokers, topic, principal or passthrough key at fault
     */
    static KafkaSinkWriter open(KafkaSinkConfig config, String path, SinkContext context) {
        Map<String, Object> connection = ProducerSettings.connection(config, path);
        Map<String, Object> props =
                ProducerSettings.producer(config, path, "etl-" + context.pipeline() + "-" + context.sink());
        String principal = ClientPrincipal.of(config.security(), config.producer());
        LOG.info("sink '{}': writing topic '{}' at {}", context.sink(), config.topic(), config.brokers());
        LOG.debug("sink '{}': producer properties {}", context.sink(), ClientProperties.redacted(props));
        if (!config.topics().isEmpty()) {
            ConnectivityCheck.of(connection, path)
                    .timeout(config.startupTimeout())
                    .principal(principal)
                    .sharedWithin(context.runId())
                    .run();
            TopicCreator.create(connection, config.topics(), config.startupTimeout(), path);
        }
        ConnectivityCheck.Outcome checked = ConnectivityCheck.of(connection, path)
                .timeout(config.startupTimeout())
                .principal(principal)
                .sharedWithin(context.runId())
                .topic(config.topic())
                .readMaxMessageBytes()
                .run();
        KafkaSinkWriter writer = new KafkaSinkWriter(config, path, context, connection, principal);
        writer.topicMaxMessageBytes = checked.topicMaxMessageBytes();
        if (context.run().exactlyOnce()) {
            writer.transaction = KafkaTransaction.of(context.pipeline(), context.run(), path);
            writer.transaction.join(path, props);
            return writer;
        }
        try {
            writer.shared = SharedProducer.acquire(
                    context.runId(),
                    props,
                    writer::newProducer,
                    context.meterRegistry(),
                    producerTags(context),
                    config.statisticsInterval());
            LOG.debug("sink '{}': using producer {}", context.sink(), writer.shared.clientId());
            writer.warmUp();
        } catch (RuntimeException e) {
            writer.close(Duration.ZERO);
            throw e;
        }
        return writer;
    }

    /** The topic's effective {@code max.message.bytes}, read once at start-up; empty when it could not be read. */
    OptionalLong topicMaxMessageBytes() {
        return topicMaxMessageBytes;
    }

    /** The producer's own meters are per producer, which several sinks may share: no {@code sink} tag. */
    private static Tags producerTags(SinkContext context) {
        return Tags.of(context.tags().stream()
                .filter(t -> !t.getKey().equals(EtlMetrics.TAG_SINK))
                .toList());
    }

    private KafkaProducer<byte[], byte[]> newProducer(Map<String, Object> properties) {
        try {
            return new KafkaProducer<>(properties);
        } catch (KafkaException e) {
            throw clientRefused(e);
        }
    }

    /** A {@link ConfigException} naming the passthrough key kafka-clients complained about, when it can tell. */
    private ConfigException clientRefused(KafkaException e) {
        StringBuilder messages = new StringBuilder();
        for (Throwable t = e; t != null && messages.length() < 2000; t = t.getCause() == t ? null : t.getCause()) {
            messages.append(' ').append(t.getMessage());
        }
        String culprit = null;
        for (String key : config.producer().keySet()) {
            if (messages.indexOf(key) >= 0 && (culprit == null || key.length() > culprit.length())) {
                culprit = key;
            }
        }
        String at = culprit == null ? path + ".producer" : path + ".producer." + culprit;
        return ConfigException.of(at, "kafka-clients refuses this producer configuration:" + messages, e);
    }

    /** Fetches the topic's metadata once, so the first batch does not wait for it (and auth problems show now). */
    private void warmUp() {
        long deadline = System.nanoTime() + config.startupTimeout().toNanos();
        while (true) {
            try {
                int partitions = shared.current().partitionsFor(topic).size();
                LOG.debug("sink '{}': topic '{}' has {} partitions", context.sink(), topic, partitions);
                return;
            } catch (TimeoutException e) {
                if (System.nanoTime() - deadline > 0) {
                    throw ConfigException.of(
                            path + ".topic",
                            "no metadata for topic '" + topic + "' within startup_timeout "
                                    + Durations.format(config.startupTimeout()),
                            e);
                }
            } catch (AuthorizationException | AuthenticationException e) {
                throw ConfigException.of(path + ".topic", classifier.classify(e).getMessage(), e);
            } catch (KafkaException e) {
                throw ConfigException.of(
                        path + ".topic", "cannot read metadata of topic '" + topic + "': " + e.getMessage(), e);
            }
        }
    }

    @Override
    public CompletableFuture<Void> writeBatch(SealedBatch<KafkaMessage> batch) {
        if (closed) {
            return CompletableFuture.failedFuture(new RetryableException("sink '" + context.sink() + "' is closed"));
        }
        List<KafkaMessage> messages = batch.messages();
        int n = messages.size();
        if (n == 0) {
            return CompletableFuture.completedFuture(null);
        }
        KafkaProducer<byte[], byte[]> p;
        if (transaction != null) {
            if (!transaction.healthy()) {
                // the open transaction cannot commit any more: nothing of it is sent, the pipeline aborts it
                return CompletableFuture.completedFuture(null);
            }
            try {
                p = transaction.producer();
            } catch (RetryableException e) {
                transaction.failed(e);
                return CompletableFuture.completedFuture(null);
            }
            transaction.recordsWritten(n);
        } else {
            try {
                p = currentProducer();
            } catch (ConfigException e) {
                return CompletableFuture.failedFuture(new FatalException(e.getMessage(), e));
            }
        }
        BatchDelivery delivery =
                new BatchDelivery(n, Thread.currentThread(), (d, error) -> completed(batch, d, error, p));
        long deadline = System.nanoTime() + deliveryTimeoutNanos;
        sendAll(p, batch, delivery, deadline);
        CompletableFuture<Void> future = delivery.future();
        if (!future.isDone()) {
            long waitNanos = deliveryTimeoutNanos + REPORT_MARGIN.toNanos();
            ScheduledFuture<?> expiry = timer.schedule(
                    () -> expired(
                            future,
                            new RetryableException("sink '" + context.sink() + "': " + delivery.outstanding() + " of "
                                    + n + " delivery reports for topic '" + topic + "' missing after "
                                    + Duration.ofNanos(waitNanos).toMillis() + " ms")),
                    waitNanos,
                    TimeUnit.NANOSECONDS);
            future.whenComplete((ok, error) -> expiry.cancel(false));
        }
        return future;
    }

    /** A batch whose reports did not all come in time: retried, or in a transaction, the transaction's end. */
    private void expired(CompletableFuture<Void> future, RetryableException error) {
        if (transaction != null) {
            transaction.failed(error);
            future.complete(null);
        } else {
            future.completeExceptionally(error);
        }
    }

    private void sendAll(
            KafkaProducer<byte[], byte[]> p, SealedBatch<KafkaMessage> batch, BatchDelivery delivery, long deadline) {
        try {
            sendEach(p, batch, delivery, deadline);
        } finally {
            delivery.sent();
        }
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
                    delivery.sending(i, p.send(record, delivery));
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
                    batch.reject(i, refusal(rejected));
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
        return new ProducerRecord<>(topic, m.partition(), null, m.key(), m.value(), headers);
    }

    /** Runs once per attempt, on a producer thread or the sender, when every report is in. */
    private void completed(
            SealedBatch<KafkaMessage> batch,
            BatchDelivery delivery,
            Throwable error,
            KafkaProducer<byte[], byte[]> used) {
        CompletableFuture<Void> future = delivery.future();
        if (error == null) {
            future.complete(null);
            return;
        }
        if (transaction != null) {
            // no retry inside a transaction: the pipeline aborts it and reads again from the last commit
            transaction.failed(error);
            future.complete(null);
            return;
        }
        // which messages the broker refused on their own account can only be read off the producer's thread
        try {
            timer.execute(() -> settle(batch, delivery, error, used));
        } catch (RejectedExecutionException closing) {
            failed(delivery, error, used);
        }
    }

    /**
     * After a failed attempt, on the timer: messages refused on their own account (too large for the topic, invalid
     * for it) are marked so; the batch then succeeds when nothing else failed, since every other message is durable.
     * Messages that failed only because they shared a producer batch with a refused one are written again.
     */
    private void settle(
            SealedBatch<KafkaMessage> batch,
            BatchDelivery delivery,
            Throwable error,
            KafkaProducer<byte[], byte[]> used) {
        Future<RecordMetadata>[] futures = delivery.futures();
        Throwable other = null;
        boolean refusedAny = false;
        for (int i = 0; i < futures.length; i++) {
            Throwable cause = failureOf(futures[i]);
            if (cause == null) {
                continue;
            }
            if (KafkaErrorClassifier.concernsOneRecord(cause)) {
                batch.reject(i, refusal(cause));
                refusedAny = true;
            } else if (other == null) {
                other = cause;
            }
        }
        if (refusedAny && other == null && delivery.abandonedNone()) {
            delivery.future().complete(null);
            return;
        }
        if (refusedAny && other != null && KafkaErrorClassifier.isCollateral(other)) {
            delivery.future()
                    .completeExceptionally(new RetryableException(
                            "writing to topic '" + topic + "': messages"
                                    + " shared a producer batch with a refused one and are written again: "
                                    + other.getMessage(),
                            other));
            return;
        }
        failed(delivery, other != null ? other : error, used);
    }

    /**
     * The failure of one message's send, or null when it succeeded or was never sent. An outcome that cannot be
     * read counts as a retryable failure: a message is never taken for durable without its report.
     */
    private Throwable failureOf(Future<?> future) {
        if (future == null) {
            return null;
        }
        try {
            future.get(TOPIC_CHECK_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
            // CHECKSTYLE.OFF: InlineFullyQualifiedName - the JDK's TimeoutException too
        } catch (java.util.concurrent.TimeoutException e) {
            // CHECKSTYLE.ON: InlineFullyQualifiedName
            return new RetryableException(
                    "sink '" + context.sink() + "': a delivery report for topic '" + topic + "' could not be read", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new RetryableException("sink '" + context.sink() + "': interrupted reading delivery reports", e);
        }
    }

    /** The record error for a message the destination refused on its own account. */
    private RecordException refusal(Throwable cause) {
        Throwable e = KafkaErrors.unwrap(cause);
        return RecordException.of(
                RecordException.PRODUCE,
                "topic '" + topic
                        + "' refused the message: " + e.getClass().getSimpleName()
                        + (e.getMessage() == null ? "" : ": " + e.getMessage()),
                e);
    }

    /** Completes a failed attempt as retryable or fatal. */
    private void failed(BatchDelivery delivery, Throwable error, KafkaProducer<byte[], byte[]> used) {
        CompletableFuture<Void> future = delivery.future();
        if (KafkaErrorClassifier.poisonsProducer(error)) {
            replaceProducer(used, error);
        }
        EtlException outcome = classifier.classify(error);
        if (outcome instanceof RetryableException && KafkaErrorClassifier.isTimeout(error) && !closed) {
            // a send that times out may be waiting for a topic that is gone: ask the brokers (this runs on the timer)
            future.completeExceptionally(topicExists() ? outcome : classifier.missingTopic(error));
            return;
        }
        future.completeExceptionally(outcome);
    }

    /** Whether the brokers still know the topic; anything but a clear "unknown topic" counts as yes. */
    private boolean topicExists() {
        Properties props = AdminSettings.properties(connection, TOPIC_CHECK_TIMEOUT, "etl-check-" + path);
        try (Admin admin = Admin.create(props)) {
            return !TopicProbe.of(admin, TOPIC_CHECK_TIMEOUT).describe(topic).missing();
        } catch (KafkaException e) {
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return true;
        }
    }

    private KafkaProducer<byte[], byte[]> currentProducer() {
        if (closed) {
            throw new RetryableException("sink '" + context.sink() + "' is closed");
        }
        try {
            return shared.current();
        } catch (IllegalStateException e) {
            throw new RetryableException("sink '" + context.sink() + "': " + e.getMessage(), e);
        }
    }

    private void replaceProducer(KafkaProducer<byte[], byte[]> used, Throwable error) {
        if (!closed) {
            shared.replace(used, error, timer);
        }
    }

    @Override
    public void close(Duration timeout) {
        closed = true;
        try {
            if (shared != null) {
                shared.release(timeout);
            }
            if (transaction != null) {
                transaction.leave(timeout);
            }
        } finally {
            timer.shutdownNow();
            SharedClusterProbe.closeIdle(context.runId());
        }
    }
}
