package io.etl.kafka.sink.internal;

import io.etl.core.checkpoint.RunContext;
import io.etl.core.checkpoint.TransactionalCheckpoint;
import io.etl.core.error.ConfigException;
import io.etl.core.error.EtlException;
import io.etl.core.error.FatalException;
import io.etl.core.error.RetryableException;
import io.etl.core.source.SourcePartition;
import io.etl.kafka.common.internal.KafkaErrors;
import io.etl.kafka.common.internal.KafkaTransactionLink;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.FencedInstanceIdException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.InvalidTxnTimeoutException;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one transactional producer of a pipeline run in exactly-once mode, shared by every Kafka sink of the
 * run (the dead-letter sink too), and the run's {@link TransactionalCheckpoint}: each checkpoint commits what
 * the sinks wrote together with the source offsets, sent with the consumer's group metadata so that the
 * group coordinator refuses the commit of a member that has left the group (KIP-447).
 *
 * <p>The producer is created, and {@code initTransactions} called (which fences an older instance with the
 * same {@code transactional.id} and aborts what it left open), when the first transaction begins: by then the
 * source has attached its consumer and every sink has registered its settings.
 */
final class KafkaTransaction implements TransactionalCheckpoint {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaTransaction.class);
    /** Transaction calls (init, offsets, commit, abort) wait this long for the coordinator. */
    static final int TRANSACTION_MAX_BLOCK_MS = 30_000;

    private final String pipeline;
    private final RunContext run;
    private final Map<String, Object> properties = new LinkedHashMap<>();
    private final Map<String, String> brokersBySink = new LinkedHashMap<>();
    private final AtomicReference<EtlException> failure = new AtomicReference<>();
    private final AtomicLong written = new AtomicLong();
    private String firstSinkPath;
    private int writers;
    private volatile KafkaProducer<byte[], byte[]> producer;
    private volatile boolean open;
    /** Claimed by the first message of the open transaction that the destination refuses on its own account. */
    private volatile AtomicBoolean refusal = new AtomicBoolean();

    private String transactionalId;

    private KafkaTransaction(String pipeline, RunContext run) {
        this.pipeline = pipeline;
        this.run = run;
    }

    /** The run's transaction, created by the first Kafka sink that opens. */
    static KafkaTransaction of(String pipeline, RunContext run, String path) {
        TransactionalCheckpoint registered =
                run.computeIfAbsent(TransactionalCheckpoint.class, () -> new KafkaTransaction(pipeline, run));
        if (!(registered instanceof KafkaTransaction tx)) {
            throw ConfigException.of(
                    path,
                    "exactly-once needs every sink of the pipeline in one transaction, but"
                            + " another connector's sink already owns it ("
                            + registered.getClass().getName() + ")");
        }
        return tx;
    }

    /**
     * A sink joins with its producer settings: the first sink's settings are used, the largest request size
     * of all, and every sink must write to the same brokers.
     */
    synchronized void join(String path, Map<String, Object> sinkProperties) {
        if (producer != null) {
            throw new IllegalStateException("sink '" + path + "' joined after the first transaction began");
        }
        String brokers = String.valueOf(sinkProperties.get(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG));
        if (properties.isEmpty()) {
            properties.putAll(sinkProperties);
            firstSinkPath = path;
        } else if (!brokers.equals(String.valueOf(properties.get(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG)))) {
            throw ConfigException.of(
                    path + ".brokers",
                    "is '" + brokers + "', but in exactly-once mode every sink"
                            + " writes in one transaction and must use the brokers of " + firstSinkPath + " ('"
                            + properties.get(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG) + "')");
        } else {
            properties.merge(
                    ProducerConfig.MAX_REQUEST_SIZE_CONFIG,
                    sinkProperties.get(ProducerConfig.MAX_REQUEST_SIZE_CONFIG),
                    (a, b) -> Math.max(((Number) a).intValue(), ((Number) b).intValue()));
        }
        brokersBySink.put(path, brokers);
        writers++;
    }

    /** The producer of the open transaction, for a writer. */
    KafkaProducer<byte[], byte[]> producer() {
        KafkaProducer<byte[], byte[]> p = producer;
        if (p == null || !open) {
            throw new RetryableException("no transaction is open");
        }
        return p;
    }

    /** Whether the open transaction can still commit (no writer failed in it). */
    boolean healthy() {
        return open && failure.get() == null;
    }

    /**
     * The flag that the first message of the open transaction refused by its destination claims: that message
     * doomed the transaction, and the producer fails the messages it still holds with the same error. A new flag
     * for each transaction, so that a late report of an earlier one claims nothing in it.
     */
    AtomicBoolean refusalFlag() {
        return refusal;
    }

    /** A write of the open transaction failed: the transaction cannot commit. Any thread. */
    void failed(Throwable error) {
        if (failure.get() == null && failure.compareAndSet(null, classify("writing", error))) {
            LOG.debug("pipeline '{}': transaction doomed by {}", pipeline, error.toString());
        }
    }

    @Override
    public void begin() {
        KafkaProducer<byte[], byte[]> p = producer;
        if (p == null) {
            p = start();
        }
        failure.set(null);
        written.set(0);
        refusal = new AtomicBoolean();
        try {
            p.beginTransaction();
        } catch (KafkaException e) {
            throw classify("beginning a transaction", e);
        }
        open = true;
    }

    private synchronized KafkaProducer<byte[], byte[]> start() {
        if (producer != null) {
            return producer;
        }
        transactionalId = transactionalId();
        Map<String, Object> props = new HashMap<>(properties);
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        props.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, (int)
                run.transactionTimeout().toMillis());
        props.put(ProducerConfig.CLIENT_ID_CONFIG, "etl-" + pipeline + "-tx");
        props.put(
                ProducerConfig.MAX_BLOCK_MS_CONFIG,
                Math.max(
                        TRANSACTION_MAX_BLOCK_MS,
                        ((Number) props.getOrDefault(ProducerConfig.MAX_BLOCK_MS_CONFIG, 0)).intValue()));
        KafkaProducer<byte[], byte[]> p;
        try {
            p = new KafkaProducer<>(props);
        } catch (KafkaException e) {
            throw ConfigException.of(
                    firstSinkPath + ".producer",
                    "kafka-clients refuses the transactional producer: " + e.getMessage(),
                    e);
        }
        try {
            p.initTransactions();
        } catch (InvalidTxnTimeoutException e) {
            p.close(Duration.ZERO);
            throw ConfigException.of(
                    "pipeline.transaction_timeout",
                    "is " + run.transactionTimeout()
                            + " but the brokers refuse it (more than their transaction.max.timeout.ms?): "
                            + e.getMessage(),
                    e);
        } catch (AuthorizationException e) {
            p.close(Duration.ZERO);
            throw ConfigException.of(
                    "pipeline.transactional_id",
                    "'" + transactionalId + "' may not be used: " + e.getMessage()
                            + " (grant WRITE and DESCRIBE on the transactional id)",
                    e);
        } catch (KafkaException e) {
            p.close(Duration.ZERO);
            throw new FatalException(
                    "pipeline '" + pipeline + "': initializing transactions for '" + transactionalId + "' failed: "
                            + e.getMessage(),
                    e);
        }
        LOG.info(
                "pipeline '{}': exactly-once, transactional id '{}', sinks {}",
                pipeline,
                transactionalId,
                brokersBySink.keySet());
        producer = p;
        return p;
    }

    /** {@code pipeline.transactional_id}, else the pipeline and the source's static member id, else the host. */
    private String transactionalId() {
        if (run.transactionalId().isPresent()) {
            return run.transactionalId().get();
        }
        KafkaTransactionLink link = run.find(KafkaTransactionLink.class).orElse(null);
        if (link != null && link.groupInstanceId().isPresent()) {
            return pipeline + "-" + link.groupInstanceId().get();
        }
        return pipeline + "-" + hostName();
    }

    private static String hostName() {
        String env = System.getenv("HOSTNAME");
        if (env != null && !env.isBlank()) {
            return env;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            throw ConfigException.of(
                    "pipeline.transactional_id",
                    "is not set and the host name is unknown (" + e.getMessage() + "): set it, unique per instance",
                    e);
        }
    }

    @Override
    public void recordsWritten(int count) {
        written.addAndGet(count);
    }

    @Override
    public long commit(Map<SourcePartition, Long> positions) {
        KafkaProducer<byte[], byte[]> p = Objects.requireNonNull(producer, "producer");
        EtlException doomed = failure.get();
        if (doomed != null) {
            abort();
            throw doomed;
        }
        try {
            if (!positions.isEmpty()) {
                KafkaTransactionLink link = run.find(KafkaTransactionLink.class)
                        .orElseThrow(() ->
                                new FatalException("exactly-once delivery needs a Kafka source in the same pipeline"));
                p.sendOffsetsToTransaction(offsets(positions), link.groupMetadata());
            }
            p.commitTransaction();
            open = false;
            return written.get();
        } catch (KafkaException e) {
            EtlException outcome = classify("committing", e);
            if (outcome instanceof FatalException) {
                open = false;
                throw outcome;
            }
            abort();
            throw outcome;
        }
    }

    private static Map<TopicPartition, OffsetAndMetadata> offsets(Map<SourcePartition, Long> positions) {
        Map<TopicPartition, OffsetAndMetadata> out = new HashMap<>(positions.size() * 2);
        positions.forEach(
                (sp, offset) -> out.put(new TopicPartition(sp.topic(), sp.partition()), new OffsetAndMetadata(offset)));
        return out;
    }

    @Override
    public void abort() {
        KafkaProducer<byte[], byte[]> p = producer;
        if (p == null || !open) {
            return;
        }
        open = false;
        try {
            p.abortTransaction();
        } catch (KafkaException e) {
            throw new FatalException(
                    "pipeline '" + pipeline + "': aborting the transaction of '" + transactionalId + "' failed: "
                            + e.getMessage(),
                    e);
        }
    }

    @Override
    public EtlException failure() {
        return failure.get();
    }

    /**
     * Fenced (a newer instance with the same transactional id, or a static member id taken over), an
     * unusable producer, or a refused authorization: this instance may not go on. Everything else aborts
     * the transaction and the pipeline reads again from the last commit.
     */
    EtlException classify(String doing, Throwable error) {
        Throwable e = KafkaErrors.unwrap(error);
        String detail = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
        if (e instanceof ProducerFencedException
                || e instanceof InvalidProducerEpochException
                || e instanceof FencedInstanceIdException
                || e instanceof OutOfOrderSequenceException
                || e instanceof UnsupportedVersionException
                || e instanceof AuthorizationException
                || e instanceof AuthenticationException
                || e instanceof IllegalStateException) {
            return new FatalException(
                    "pipeline '" + pipeline + "': " + doing + " in transaction '" + transactionalId
                            + "' failed and this instance cannot go on (fenced by a newer instance, or a fatal client error): "
                            + detail,
                    e);
        }
        if (e instanceof EtlException etl) {
            return etl;
        }
        String hint = e instanceof TimeoutException ? " (timed out)" : "";
        return new RetryableException(
                "pipeline '" + pipeline + "': " + doing + " in transaction '" + transactionalId + "' failed" + hint
                        + ": " + detail,
                e);
    }

    /** A sink is done; the last one closes the producer (aborting what is still open). */
    void leave(Duration timeout) {
        KafkaProducer<byte[], byte[]> toClose;
        synchronized (this) {
            if (--writers > 0) {
                return;
            }
            toClose = producer;
            producer = null;
        }
        if (toClose != null) {
            toClose.close(timeout);
        }
    }
}
