package io.etl.kafka.sink.internal;

import io.etl.core.config.Durations;
import io.etl.core.error.ConfigException;
import io.etl.core.error.EtlException;
import io.etl.core.error.FatalException;
import io.etl.core.error.RetryableException;
import io.etl.core.metrics.EtlMetrics;
import io.etl.core.sink.OpenWrite;
import io.etl.core.sink.SealedBatch;
import io.etl.core.sink.SinkContext;
import io.etl.core.sink.SinkWriter;
import io.etl.kafka.common.internal.AdminSettings;
import io.etl.kafka.common.internal.TopicProbe;
import io.etl.kafka.sink.KafkaMessage;
import io.etl.kafka.sink.KafkaSinkConfig;
import io.micrometer.core.instrument.Tags;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes sealed batches at least once with a {@link KafkaProducer} shared by the sink's shards, and by the other
 * Kafka sinks of the same pipeline run whose producer settings are identical ({@link SharedProducer}). It sends
 * without blocking ({@link #sendsWithoutBlocking()}) unless {@code max.block.ms} was raised above
 * {@link #MAX_INLINE_BLOCK_MS}: each batch is then sent on the pipeline thread as it is sealed ({@link BatchSender}),
 * and the producer's own batching does the network I/O. A failed attempt is settled on the sink's timer: messages the
 * destination refused on their own account are marked for their policy, the rest of the outcome is classified as
 * retryable (the shard writes the batch again) or fatal, and a producer a fatal client error made unusable is
 * replaced for every sink sharing it.
 */
final class AtLeastOnceKafkaWriter implements SinkWriter<KafkaMessage> {

    private static final Logger LOG = LoggerFactory.getLogger(AtLeastOnceKafkaWriter.class);
    /** Bound of reading a delivery report after a failed attempt, and of asking whether the topic still exists. */
    private static final Duration TOPIC_CHECK_TIMEOUT = Duration.ofSeconds(5);
    /**
     * The longest {@code max.block.ms} with which sends still run on the pipeline thread: {@code send} waits that
     * long at most for buffer room or metadata before the rest of a batch is handed over by the sink's timer.
     */
    static final long MAX_INLINE_BLOCK_MS = 100;
    /** While the topic's metadata is not there at start-up: how long to wait before asking again. */
    private static final long METADATA_RETRY_MILLIS = 10;

    private final KafkaSinkConfig config;
    private final String path;
    private final String topic;
    private final SinkContext context;
    private final Map<String, Object> connection;
    private final KafkaErrorClassifier classifier;
    private final BatchSender sender;
    private final boolean sendsWithoutBlocking;
    private SharedProducer shared;

    private AtLeastOnceKafkaWriter(
            KafkaSinkConfig config,
            String path,
            SinkContext context,
            Map<String, Object> connection,
            KafkaErrorClassifier classifier,
            long maxBlockMs) {
        this.sendsWithoutBlocking = maxBlockMs <= MAX_INLINE_BLOCK_MS;
        this.config = config;
        this.path = path;
        this.topic = Destinations.label(config);
        this.context = context;
        this.connection = connection;
        this.classifier = classifier;
        this.sender = new BatchSender(config, context);
    }

    /**
     * Acquires the run's producer for these settings and fetches the topic's metadata with it, within
     * {@code startup_timeout}.
     *
     * @param connection the bootstrap and security properties, for asking the brokers about the topic later
     * @param producer   the complete producer properties
     * @param principal  the principal to name in errors, or {@code null}
     * @throws ConfigException naming the passthrough key kafka-clients refuses, or the topic whose metadata cannot
     *                         be read
     */
    static AtLeastOnceKafkaWriter open(
            KafkaSinkConfig config,
            String path,
            SinkContext context,
            Map<String, Object> connection,
            Map<String, Object> producer,
            String principal) {
        AtLeastOnceKafkaWriter writer = new AtLeastOnceKafkaWriter(
                config,
                path,
                context,
                connection,
                new KafkaErrorClassifier(Destinations.label(config), principal),
                ProducerSettings.maxBlockMs(producer));
        try {
            writer.shared = SharedProducer.acquire(
                    context.runId(),
                    producer,
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

    /**
     * The producer's own meters are per producer, which several sinks, and the loops of a pipeline, may share: no
     * {@code sink} or {@code thread} tag.
     */
    private static Tags producerTags(SinkContext context) {
        return Tags.of(context.tags().stream()
                .filter(t ->
                        !t.getKey().equals(EtlMetrics.TAG_SINK) && !t.getKey().equals(EtlMetrics.TAG_THREAD))
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
        if (config.topic() == null) {
            return; // a route's topics: each is looked at on its first use
        }
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
                // max.block.ms may be short (0 by default): the producer fetches the metadata meanwhile
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(METADATA_RETRY_MILLIS));
            } catch (AuthorizationException | AuthenticationException e) {
                throw ConfigException.of(path + ".topic", classifier.classify(e).getMessage(), e);
            } catch (KafkaException e) {
                throw ConfigException.of(
                        path + ".topic", "cannot read metadata of topic '" + topic + "': " + e.getMessage(), e);
            }
        }
    }

    /** True unless {@code max.block.ms} was raised above {@link #MAX_INLINE_BLOCK_MS} through the passthrough. */
    @Override
    public boolean sendsWithoutBlocking() {
        return sendsWithoutBlocking;
    }

    @Override
    public CompletableFuture<Void> writeBatch(SealedBatch<KafkaMessage> batch) {
        CompletableFuture<Void> unsent = sender.unsent(batch);
        if (unsent != null) {
            return unsent;
        }
        KafkaProducer<byte[], byte[]> p;
        try {
            p = currentProducer();
        } catch (ConfigException e) {
            return CompletableFuture.failedFuture(new FatalException(e.getMessage(), e));
        }
        return sender.send(
                p, batch, (d, error) -> completed(batch, d, error, p), CompletableFuture::completeExceptionally);
    }

    /**
     * Starts a batch's first attempt before it is sealed, its messages sent as they are added; null when the shard's
     * earlier batches still wait for room in the producer, or the producer cannot be had now (the batch is then
     * written once sealed, which reports why).
     */
    @Override
    public OpenWrite<KafkaMessage> openWrite(int shard) {
        if (!sendsWithoutBlocking || sender.closed()) {
            return null;
        }
        KafkaProducer<byte[], byte[]> p;
        try {
            p = currentProducer();
        } catch (RuntimeException e) {
            return null;
        }
        return sender.open(p, shard, (batch, d, error) -> completed(batch, d, error, p));
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
        // which messages the broker refused on their own account can only be read off the producer's thread
        try {
            sender.timer().execute(() -> settle(batch, delivery, error, used));
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
        // messages at the head that are durable (or refused on their own account): a retry need not write them again
        int durable = batch.durablePrefix();
        boolean head = true;
        for (int i = 0; i < futures.length; i++) {
            Throwable cause = failureOf(futures[i]);
            if (cause == null) {
                head &= futures[i] != null || batch.rejected(i) || i < durable;
                durable = head ? i + 1 : durable;
                continue;
            }
            if (KafkaErrorClassifier.concernsOneRecord(cause)) {
                batch.reject(i, sender.refusal(batch.messages().get(i), cause));
                refusedAny = true;
                durable = head ? i + 1 : durable;
            } else {
                head = false;
                if (other == null) {
                    other = cause;
                }
            }
        }
        batch.durablePrefix(durable);
        Throwable rest = remainingFailure(refusedAny, other, delivery, error);
        if (rest == null) {
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
        failed(delivery, rest, used);
    }

    /**
     * What decides a settled attempt, null when it succeeded: the failure of a message not refused on its own
     * account; else, when some were refused (and are marked so), why messages of the attempt were never sent, or
     * nothing when all were; else the attempt's first error. A refusal is never the answer once marked: the first
     * error may be one while the rest failed to be sent for another reason (the producer closed under it), and
     * those are written again.
     */
    static Throwable remainingFailure(boolean refusedAny, Throwable other, BatchDelivery delivery, Throwable error) {
        if (other != null) {
            return other;
        }
        if (!refusedAny) {
            return error;
        }
        return delivery.abandonCause(); // null when every message was sent
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

    /** Completes a failed attempt as retryable or fatal. */
    private void failed(BatchDelivery delivery, Throwable error, KafkaProducer<byte[], byte[]> used) {
        CompletableFuture<Void> future = delivery.future();
        if (KafkaErrorClassifier.poisonsProducer(error)) {
            replaceProducer(used, error);
        }
        EtlException outcome = classifier.classify(error);
        if (outcome instanceof RetryableException
                && KafkaErrorClassifier.isTimeout(error)
                && config.topic() != null
                && !sender.closed()) {
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
        if (sender.closed()) {
            throw new RetryableException("sink '" + context.sink() + "' is closed");
        }
        try {
            return shared.current();
        } catch (IllegalStateException e) {
            throw new RetryableException("sink '" + context.sink() + "': " + e.getMessage(), e);
        }
    }

    private void replaceProducer(KafkaProducer<byte[], byte[]> used, Throwable error) {
        if (!sender.closed()) {
            shared.replace(used, error, sender.timer());
        }
    }

    @Override
    public void close(Duration timeout) {
        sender.close(() -> {
            if (shared != null) {
                shared.release(timeout);
            }
        });
    }
}
